import { type LegalDocument, LegalPage } from './legal-page';

/** Placeholder terms: edit freely. `{site}` becomes the site name. */
const TERMS_OF_SERVICE: LegalDocument = {
  title: 'Terms of Service',
  updated: 'November 21, 2026',
  intro:
    'These terms govern your use of {site} and the resources offered on it. By browsing the site or downloading a resource you agree to them. If you do not agree, please do not use the site.',
  sections: [
    {
      heading: 'Using the site',
      body: [
        'You may browse, preview and download resources for your own creative work. You agree not to misuse the service, including by:',
        [
          'scraping or bulk-downloading the catalogue with automated tools;',
          'trying to access the admin area, other accounts or our systems without permission;',
          'interfering with the site’s security, performance or availability.',
        ],
      ],
    },
    {
      heading: 'Licence for resources',
      body: [
        'Unless a resource says otherwise, you may use it in personal and commercial projects such as videos, photos, social media posts and client work.',
        [
          'You may not resell, redistribute or share the original files, alone or in a bundle, as they are or with minor changes.',
          'You may not claim the resources as your own creations.',
          'Some resources come with their own licence from their creator; where they do, that licence applies.',
        ],
      ],
    },
    {
      heading: 'Premium resources',
      body: [
        'Resources marked Premium are curated, higher-end packs. Any extra conditions shown with a premium resource form part of these terms for that resource.',
      ],
    },
    {
      heading: 'Third-party content and links',
      body: [
        'Some downloads are hosted elsewhere, and community links lead to other platforms. We are not responsible for the content, availability or policies of third-party sites.',
      ],
    },
    {
      heading: 'Copyright and takedown requests',
      body: [
        'We respect creators’ rights. If you believe a resource on {site} infringes your copyright, contact us with the resource’s address and proof of ownership, and we will review it and remove it where appropriate.',
      ],
    },
    {
      heading: 'Disclaimer',
      body: [
        'The site and all resources are provided “as is” and “as available”, without warranties of any kind. We do not guarantee that resources are error-free, compatible with your software or suitable for a particular purpose.',
      ],
    },
    {
      heading: 'Limitation of liability',
      body: [
        'To the fullest extent permitted by law, {site} and its owner are not liable for any indirect, incidental or consequential damages arising from your use of the site or its resources.',
      ],
    },
    {
      heading: 'Changes to these terms',
      body: [
        'We may update these terms from time to time. The date at the top shows the latest version; continuing to use the site after a change means you accept the updated terms.',
      ],
    },
  ],
};

export default function TermsPage() {
  return <LegalPage doc={TERMS_OF_SERVICE} />;
}
