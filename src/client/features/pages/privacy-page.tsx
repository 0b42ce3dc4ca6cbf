import { type LegalDocument, LegalPage } from './legal-page';

/** Placeholder policy: edit freely. `{site}` becomes the site name. */
const PRIVACY_POLICY: LegalDocument = {
  title: 'Privacy Policy',
  updated: 'November 21, 2026',
  intro:
    '{site} lets you browse, preview and download creative resources without creating an account. This policy explains what little information we handle when you visit, why, and the choices you have.',
  sections: [
    {
      heading: 'Information we collect',
      body: [
        'Visitors do not sign up, so we never ask for your name, email address or payment details to use the site.',
        [
          'Download counts: when you download a resource we add one to its counter and to a daily total. These numbers are not linked to you.',
          'Server logs: like most websites, our server records technical details of each request (IP address, browser type, the page requested and the time) to keep the service secure and working.',
          'Preferences in your browser: your theme choice and the announcements you dismissed are stored in your own browser (local storage), never on our servers.',
        ],
        'Admins who sign in have an account with a username and a securely hashed password, and a session cookie that keeps them signed in.',
      ],
    },
    {
      heading: 'How we use information',
      body: [
        [
          'To deliver pages, previews and downloads you ask for.',
          'To show which resources are popular and improve the catalogue.',
          'To detect and stop abuse such as automated scraping, brute-force sign-in attempts or attacks on the service.',
        ],
        'We do not sell personal information, and we do not use it for advertising profiles.',
      ],
    },
    {
      heading: 'Cookies and local storage',
      body: [
        'The public site sets no tracking or advertising cookies. The only cookie is the session cookie used by signed-in admins; it is strictly necessary and expires after a period of inactivity.',
        'Local storage keeps your theme (light, dark or system) and dismissed notifications. You can clear them at any time in your browser settings.',
      ],
    },
    {
      heading: 'Third-party links and downloads',
      body: [
        'Some resources are hosted by third parties, and our community cards link to outside platforms such as Discord, YouTube or Instagram. When you follow those links, the other site’s privacy policy applies. We open downloads without passing on the page you came from.',
      ],
    },
    {
      heading: 'Data retention',
      body: [
        'Server logs are kept for a short period (typically up to 30 days) and then deleted, unless they are needed to investigate abuse. Aggregate download statistics are kept for as long as the resource is listed.',
      ],
    },
    {
      heading: 'Security',
      body: [
        'We use encrypted connections, hash admin passwords with a modern algorithm, and limit access to our systems. No method of transmission or storage is completely secure, but we work to protect the information we hold.',
      ],
    },
    {
      heading: 'Children’s privacy',
      body: ['{site} is not directed at children under 13, and we do not knowingly collect personal information from them.'],
    },
    {
      heading: 'Your rights',
      body: [
        'Depending on where you live, you may have the right to access, correct or delete personal information we hold about you, or to object to its use. Because visitors have no account, we usually hold nothing that identifies you beyond short-lived server logs. Contact us and we will help.',
      ],
    },
    {
      heading: 'Changes to this policy',
      body: ['We may update this policy as the site evolves. The date at the top shows when it last changed; significant changes will also be announced through the notification bell.'],
    },
  ],
};

export default function PrivacyPage() {
  return <LegalPage doc={PRIVACY_POLICY} />;
}
