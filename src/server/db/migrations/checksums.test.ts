import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '.';

/**
 * Every migration file (and the helpers they share) as it shipped. A database that has run a
 * migration never runs it again, so an edit would reach new installs only: change the schema with
 * a new migration instead. Adding a migration means adding its file's checksum here, in the same
 * commit (it ships when that commit lands).
 */
const SHIPPED: Record<string, string> = {
  '001-initial.ts': '41c269ec3d9ed2c4dfa1b55702b032bd6bf6202c1ae11576bc2e00cdfdb12bc2',
  '002-data-version.ts': '9ec12c1e27361c46591509290e187341e33b833d9797028ecff6537e16111aad',
  '003-search.ts': '31c4e082ed57a41fe22483bc18ac1e841d0fe1bfc78ef641057c5555f5124e67',
  '004-downloads-keep-data-version.ts': '7c848c0b18487478d05a57ca855d57f341089d09ff20439a27a82b90d3b3e045',
  '005-tag-keys.ts': 'ef5aebe41b1f49f162f81f7971f5d1a93377ca3cb2d6fc13321a8aa54aefb6f8',
  '006-data-version-notify.ts': '8f718c900f354f12e190a6f8f44d221022330aee300317b46d10d7aa00194d5b',
  '007-category-search-indexes.ts': 'c94436fe898ee05531e0394d8edd52e5af0bff12f97a16c611579c815b3dbd3a',
  '008-search-with-tags.ts': '16fd38f1c077fef404b1d8567e73aa57aff0cf48365aa67dc822852cf1a38493',
  '009-search-folded-text.ts': 'caeac03c4f7d7127ae87fc044806e3afb0b3b5c52337213c83cb9c1dc7d3dd5e',
  '010-server-secrets.ts': '172cdd8050247396e503999942be22e1b253a7c1bcebf14ebc0314e765d63f59',
  '014-media-jobs.ts': 'bc99f97e88a254dfa89f53aa7669ac426d374d21bfc5ae8d2d9d7f19e605f828',
  '015-files.ts': 'c32eb544683d632f141654377f8be4a206bbe2f417ca73c46260bf9ca65ba62c',
  '016-resource-licences.ts': 'c1054301c5645c16cb9ed6cfbaa47c6e587cfb0f9d8536fac0a2424c833554b9',
  '017-resource-previews.ts': '45b4b32f76efdd7ffc951795789a1b47560f582594ebba6b01ea3a34b56db576',
  '018-download-visitors.ts': '87aa0fca1808cc205a3f92491abd175d16c35436dad48b67ff597d727b21cece',
  '020-uploads-by-admin.ts': '2de77fdcd3784e012a4555ca8bd590c9ac009a26afbb3d60bd764be2606d4c94',
  '021-media-owners.ts': '621b1a84fac1cf046e93584d4ff8738e43144ab51ab4e3e4cb8941f92c12a437',
  '023-thumbnail-choice.ts': 'd47b2350bc0faa59bcb7b78d363b677841ac15bfcc7c9707250a4d1f71225f12',
  '024-media-job-input-refused.ts': '44df681c0cfcb061dc36a8d98709a881e8bae99fa0d43ff12bba437193d1f87a',
  '025-owner-settings.ts': 'c9ad915ed8be3456e8b45227e6f4be60d07e44ecbf19ceb0dd92b1adeaee4faf',
  '027-resource-status.ts': '70a0c06ca19e605bf7374f93d28c5e7666779f2b70995b67b03333c240ce90b3',
  '028-announcement-windows.ts': '4ea39636b16fe4f6586b80579aaa51fff957256b91865cc06b3e877c9d7857b5',
  '029-resource-trash.ts': '460806672d1d485b867ed19fc7af785b04f70f83f251e8ffcf0c7c4c05700058',
  '030-two-factor.ts': 'fcfef35ecbc70edc6cfb5ddc6f90b9fe2964fa47991c6d94438037995fb3259d',
  '031-session-details.ts': 'cbe2a924cacf15d44640344a026beedff42f4e312a62f22dc03475317df8362b',
  '032-audit-log.ts': '72c5a17551086acdb0542a73ec60ee19ab750fa4e0e25423bac7bdb23ca8e71a',
  '033-passkeys.ts': '13b8d7bfbfa4ce49c5e4c9012642a20c76065e44345392c18c85b2cb237b6a5f',
  '034-link-checks.ts': '937bc3fcee4ac2ef963e5d04d696222b27cb43e53b302404ba725bd5d53cc5af',
  '035-file-listings.ts': '3cea9340bfd9c4f1bb9e00b0b447ced9dbab5eb6402f3b8b07c81535e816f6dc',
  '036-instances.ts': '28929191a188f2230ebdc6bda66439eb7076a321aa8c08a4b99abc50303e3d4e',
  '039-resource-facets.ts': 'eae84b04e032cc92e845dcd7dd7474538a99f4dfa55b03523e33f9201d9bf7e8',
  '040-sort-indexes-hold-status.ts': 'f0da6164a0dc6800be0b97f595241f57b209f23b88a0d0b6e0eaa6f0a4294161',
  '041-facet-profiles.ts': '4a16e4723b648e20b5fea2fc3ac268b0a43528fa58d4a9e6d3334de42cd387aa',
  '042-related-lookup-index.ts': '7fb1e3a7a5bfee64f10e6f4c42265c0fd42658c3da2dd6b470aa816275602c67',
  '043-relist-system-files.ts': '88613a914d549659d82e27d269fdaab164b301603f59d330a6800010c6281c37',
  '044-read-me-is-not-a-format.ts': '3a29801e355e3c957c5f843166dc4179d1f2c9cf4a2ba9e281923815d8d43d30',
  'helpers.ts': '1f5abefb43b8afaeec64bd17d4062db77ae702be403f440f725c46bf60e37260',
};

const DIR = import.meta.dirname;
const checksum = (file: string) => createHash('sha256').update(readFileSync(path.join(DIR, file), 'utf8').replace(/\r\n/g, '\n')).digest('hex');
const migrationFiles = readdirSync(DIR).filter((f) => /^\d{3}-[a-z0-9-]+\.ts$/.test(f)).sort();

describe('migrations', () => {
  it.each(Object.keys(SHIPPED))('%s is unchanged since it shipped', (file) => {
    expect(checksum(file), `${file} has shipped: add a new migration instead of editing it`).toBe(SHIPPED[file]);
  });

  it('every migration file has a recorded checksum and a place in the list, in order', () => {
    expect(migrationFiles.filter((f) => !(f in SHIPPED)), 'record the checksum of each new migration in SHIPPED').toEqual([]);
    const listed = MIGRATIONS.map(([name]) => name);
    // The list's names are what databases have recorded: 001_initial for 001-initial.ts.
    expect(listed).toEqual(migrationFiles.map((f) => f.replace(/\.ts$/, '').replace(/-/, '_').replace(/-/g, '_')));
  });
});
