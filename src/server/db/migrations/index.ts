import type { Dialect } from '../connection';
import * as m001 from './001-initial';
import * as m002 from './002-data-version';
import * as m003 from './003-search';
import * as m004 from './004-downloads-keep-data-version';
import * as m005 from './005-tag-keys';
import * as m006 from './006-data-version-notify';
import * as m007 from './007-category-search-indexes';
import * as m008 from './008-search-with-tags';
import * as m009 from './009-search-folded-text';
import * as m010 from './010-server-secrets';
import * as m014 from './014-media-jobs';
import * as m015 from './015-files';
import * as m016 from './016-resource-licences';
import * as m017 from './017-resource-previews';
import * as m018 from './018-download-visitors';
import * as m020 from './020-uploads-by-admin';
import * as m021 from './021-media-owners';
import * as m023 from './023-thumbnail-choice';
import * as m024 from './024-media-job-input-refused';
import * as m025 from './025-owner-settings';
import * as m027 from './027-resource-status';
import * as m028 from './028-announcement-windows';
import * as m029 from './029-resource-trash';
import * as m030 from './030-two-factor';
import * as m031 from './031-session-details';
import * as m032 from './032-audit-log';
import * as m033 from './033-passkeys';
import * as m034 from './034-link-checks';
import * as m035 from './035-file-listings';
import * as m036 from './036-instances';
import * as m039 from './039-resource-facets';
import * as m040 from './040-sort-indexes-hold-status';
import * as m041 from './041-facet-profiles';
import * as m042 from './042-related-lookup-index';
import * as m043 from './043-relist-system-files';
import * as m044 from './044-read-me-is-not-a-format';
import type { AnyDb } from './helpers';

interface MigrationFile {
  up(db: AnyDb, dialect: Dialect): Promise<void>;
}

/**
 * Every migration, in order, by the name the database records (one file each). Append new ones
 * (file and checksum, see checksums.test.ts); never edit one that has shipped.
 */
export const MIGRATIONS: [name: string, migration: MigrationFile][] = [
  ['001_initial', m001],
  ['002_data_version', m002],
  ['003_search', m003],
  ['004_downloads_keep_data_version', m004],
  ['005_tag_keys', m005],
  ['006_data_version_notify', m006],
  ['007_category_search_indexes', m007],
  ['008_search_with_tags', m008],
  ['009_search_folded_text', m009],
  ['010_server_secrets', m010],
  // 011–013 were never written: wip/jobs took 014 (9be3015) while 009–010 were still on other branches, leaving room that no branch used.
  ['014_media_jobs', m014],
  ['015_files', m015],
  ['016_resource_licences', m016],
  ['017_resource_previews', m017],
  ['018_download_visitors', m018],
  ['020_uploads_by_admin', m020],
  ['021_media_owners', m021],
  ['023_thumbnail_choice', m023],
  ['024_media_job_input_refused', m024],
  ['025_owner_settings', m025],
  ['027_resource_status', m027],
  ['028_announcement_windows', m028],
  ['029_resource_trash', m029],
  ['030_two_factor', m030],
  ['031_session_details', m031],
  ['032_audit_log', m032],
  ['033_passkeys', m033],
  ['034_link_checks', m034],
  ['035_file_listings', m035],
  ['036_instances', m036],
  ['039_resource_facets', m039],
  ['040_sort_indexes_hold_status', m040],
  ['041_facet_profiles', m041],
  ['042_related_lookup_index', m042],
  ['043_relist_system_files', m043],
  ['044_read_me_is_not_a_format', m044],
];
