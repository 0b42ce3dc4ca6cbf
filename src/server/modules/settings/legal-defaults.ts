import type { LegalPageKey } from '../../../contract/settings';

/**
 * The legal pages a new install shows, in Markdown (an owner edits them in Settings). They say what
 * this software really keeps: read modules/downloads (visitor.ts: the day's salted hash, dropped
 * with its salt after the day), the client's lib/storage.ts (theme and dismissed announcements in
 * local storage) and auth (the admins' session cookie). `{site}` is replaced by the site's name
 * when a page is rendered (markdown.ts).
 */
export const LEGAL_TITLES: Record<LegalPageKey, string> = { privacy: 'Privacy Policy', terms: 'Terms of Service' };

/** When the default texts below last changed: their "last updated" date until an owner edits them. */
export const LEGAL_DEFAULTS_UPDATED_AT = '2026-11-27T00:00:00.000Z';

const PRIVACY = `{site} lets you browse, preview and download creative resources without creating an account. This policy explains what little information the site handles when you visit, why, and the choices you have.

## Information we collect

Visitors do not sign up, so we never ask for your name, email address or payment details to use the site. There are no visitor accounts.

- **Download counts.** When you download a resource we add one to its counter and to that day's totals. To count a visitor once a day per resource, the server computes a keyed hash of your IP address and browser (User-Agent) with a random key made for that day. Neither your IP address nor your browser is stored in clear. The hashes and the day's key are deleted once the day is over; after that nobody, the site's operator included, can tell whose download it was. Only the counts remain, and they are not linked to you.
- **Abuse limits.** To stop automated bulk downloading and attacks on the sign-in, the server keeps short-lived counters keyed by a hash of the IP address; they expire within minutes.
- **Server logs.** Like most websites, the server records technical details of each request (IP address, the page requested, the time and the answer) to keep the service secure and working.
- **Preferences in your browser.** Your theme choice and the announcements you dismissed are stored in your own browser's local storage, never on our servers.

Admins who sign in have an account with a username and a securely hashed password, and a session cookie that keeps them signed in.

## How we use information

- To deliver the pages, previews and downloads you ask for.
- To show which resources are popular and improve the catalogue.
- To detect and stop abuse such as automated scraping, brute-force sign-in attempts or attacks on the service.

We do not sell personal information, and we do not use it for advertising profiles.

## Cookies and local storage

The public site sets no cookies: no tracking, advertising or analytics cookies. The only cookie is the session cookie of signed-in admins; it is strictly necessary and expires after a period of inactivity.

Local storage keeps your theme (light, dark or system) and the announcements you dismissed. You can clear them at any time in your browser's settings.

## Third-party links and downloads

Some resources are hosted by third parties, and the community cards link to outside platforms such as Discord, YouTube or Instagram. When you follow those links, the other site's privacy policy applies. Downloads open without passing on the page you came from.

## Data retention

- Visitor hashes and the key they were made with: deleted after the day they belong to.
- Server logs: kept for a short period by the site's operator, then deleted, unless they are needed to investigate abuse.
- Download counts per resource and per day: kept for as long as the resource is listed; they identify nobody.

## Security

We use encrypted connections, hash admin passwords with a modern algorithm, and limit access to our systems. No method of transmission or storage is completely secure, but we work to protect the information we hold.

## Children's privacy

{site} is not directed at children under 13, and we do not knowingly collect personal information from them.

## Your rights

Depending on where you live, you may have the right to access, correct or delete personal information we hold about you, or to object to its use. Because visitors have no account, we usually hold nothing that identifies you beyond short-lived server logs. Contact us and we will help.

## Changes to this policy

We may update this policy as the site evolves. The date on this page shows when it last changed; significant changes will also be announced through the notification bell.
`;

const TERMS = `These terms govern your use of {site} and the resources offered on it. By browsing the site or downloading a resource you agree to them. If you do not agree, please do not use the site.

## Using the site

You may browse, preview and download resources for your own creative work. You agree not to misuse the service, including by:

- scraping or bulk-downloading the catalogue with automated tools;
- trying to access the admin area, other accounts or our systems without permission;
- interfering with the site's security, performance or availability.

## Licence for resources

Unless a resource says otherwise, you may use it in personal and commercial projects such as videos, photos, social media posts and client work.

- You may not resell, redistribute or share the original files, alone or in a bundle, as they are or with minor changes.
- You may not claim the resources as your own creations.
- Some resources come with their own licence from their creator; where they do, that licence applies.

## Premium resources

Resources marked Premium are curated, higher-end packs. Any extra conditions shown with a premium resource form part of these terms for that resource.

## Third-party content and links

Some downloads are hosted elsewhere, and community links lead to other platforms. We are not responsible for the content, availability or policies of third-party sites.

## Copyright and takedown requests

We respect creators' rights. If you believe a resource on {site} infringes your copyright, contact us with the resource's address and proof of ownership, and we will review it and remove it where appropriate.

## Disclaimer

The site and all resources are provided "as is" and "as available", without warranties of any kind. We do not guarantee that resources are error-free, compatible with your software or suitable for a particular purpose.

## Limitation of liability

To the fullest extent permitted by law, {site} and its owner are not liable for any indirect, incidental or consequential damages arising from your use of the site or its resources.

## Changes to these terms

We may update these terms from time to time. The date on this page shows the latest version; continuing to use the site after a change means you accept the updated terms.
`;

export const LEGAL_DEFAULTS: Record<LegalPageKey, string> = { privacy: PRIVACY, terms: TERMS };
