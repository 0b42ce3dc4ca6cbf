import type { Generated } from 'kysely';

/**
 * Table types. Booleans are stored as integers 0/1 and timestamps as ISO-8601 UTC text on
 * both databases, so one schema and one set of queries serve SQLite and PostgreSQL.
 */
export interface ResourcesTable {
  id: Generated<number>;
  title: string;
  description: string;
  category: string;
  thumbnail_url: string;
  download_url: string;
  is_premium: number;
  download_count: Generated<number>;
  popularity: Generated<number>;
  /** JSON array of the tags as typed; resource_tags holds them lower-cased for filtering. */
  tags: string;
  created_at: string;
  updated_at: string;
  admin_id: number | null;
  /** contract/resource-page.ts LICENCE_KINDS (migration 016). */
  licence_kind: Generated<string>;
  /** The credit line (attribution) or the licence's text (custom); null for the other kinds. */
  licence_text: string | null;
  /** The media job making this resource's preview (migration 017). */
  preview_job_id: number | null;
  /** JSON: the ready preview's stored result (the job's result), shown to visitors. */
  preview: string | null;
  /** JSON [{ id, min_version }]: an admin's correction of the deduced apps (migration 035); null: deduced. */
  apps?: string | null;
  /** The hosted download (files row), when the download is not a link (migration 015). */
  download_file_id: Generated<number | null>;
  /** The hosted thumbnail (files row), when the thumbnail is not a link. */
  thumbnail_file_id: Generated<number | null>;
  /** contract/thumbnail-choice.ts THUMBNAIL_CHOICES: its own thumbnail or its video's poster (migration 023). */
  thumbnail_choice: Generated<string>;
  /** contract/resources.ts RESOURCE_STATUSES (migration 027) or TRASHED_STATUS (029); only 'published' is public (modules/resources/visibility.ts). */
  status: Generated<string>;
  /** When a scheduled resource is published (UTC ISO-8601); null unless status is 'scheduled' (kept while it is in the trash). */
  publish_at: string | null;
  /** In the trash: the status a restore gives back (migration 029); null otherwise. */
  status_before_trash: string | null;
  /** In the trash: since when (UTC ISO-8601); null otherwise. */
  trashed_at: string | null;
  /** Its facet rows as one string (migration 041, search/facet-rows.ts facetProfile); null without any, or while stale. */
  facet_profile?: string | null;
}

export interface ResourceTagsTable {
  resource_id: number;
  tag: string;
}

/** A resource's facet values, for the list's filters and facets (migration 039, search/facet-rows.ts). */
export interface ResourceFacetsTable {
  resource_id: number;
  /** 'app' | 'format' | 'orientation' (value) or 'height' | 'duration' (number; value ''). */
  kind: string;
  value: string;
  number: number | null;
  category: string;
}

/** Resources whose facet rows are to be computed again (migration 039's triggers mark them). */
export interface ResourceFacetsStaleTable {
  resource_id: number;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  message: string;
  is_active: number;
  admin_id: number | null;
  created_at: string;
  /** Shown from then on (migration 028); null: from its creation. */
  starts_at: string | null;
  /** Shown until then; null: until switched off. */
  ends_at: string | null;
}

export interface AdminsTable {
  id: Generated<number>;
  username: string;
  /** lower(username), unique: usernames are unique case-insensitively. */
  username_key: string;
  password_hash: string;
  is_super_user: number;
  created_at: string;
  /** 1: this admin's sessions may only change the password (migration 031). */
  must_change_password: Generated<number>;
}

export interface SessionsTable {
  /** SHA-256 of the session token (keyed with the session secret); the token itself is never stored. */
  id: string;
  admin_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** The session's name in the API (migration 031): the id above is never exposed. */
  public_id: string;
  /** The address and User-Agent the session began from (null for sessions older than migration 031). */
  ip: string | null;
  user_agent: string | null;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: string;
}

export interface DownloadDaysTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
}

export interface SettingsTable {
  key: string;
  /** JSON value. */
  value: string;
}

/** Keys the server generates for itself (migration 010); never served. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** Jobs (migration 014, src/server/jobs/; the table keeps its first name: docs/decisions/353-a-job-queue-of-its-own.md). */
export interface MediaJobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON. */
  payload: string;
  subject: string | null;
  state: JobState;
  attempts: Generated<number>;
  max_attempts: number;
  run_at: string;
  claim_token: string | null;
  claimed_by: string | null;
  lease_expires_at: string | null;
  /** The last failure's reason, for people. */
  error: string | null;
  /** 1 when the job failed on its input (migration 024): running it again cannot help. */
  input_refused: Generated<number>;
  /** JSON: what the handler returned. */
  result: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export type JobState = 'queued' | 'processing' | 'ready' | 'failed';
/** A tus upload from creation until attached or swept (migration 015). */
export interface UploadsTable {
  /** The upload id (32 hex), also the last segment of its tus URL. */
  id: string;
  purpose: 'download' | 'thumbnail';
  /** The original file name, checked at creation. */
  name: string;
  /** The browser's MIME type (a hint only). */
  type_hint: string | null;
  /** Upload-Length. bigint: a string or number as the driver gives it. */
  size: number | string;
  /** Set once every byte has arrived: the SHA-256 of the bytes in the store. */
  sha256: string | null;
  admin_id: number | null;
  created_at: string;
  finished_at: string | null;
}

/** A verified, attached hosted file (migration 015). */
export interface FilesTable {
  id: Generated<number>;
  /** Where the bytes are in the file store. */
  key: string;
  kind: 'download' | 'thumbnail';
  name: string;
  size: number | string;
  sha256: string;
  content_type: string;
  /** Thumbnails: JSON of StoredImage (variants and placeholder, their bytes under media/). */
  image: string | null;
  created_at: string;
  /** Set when no resource points at it any more; the sweep removes it after a grace period. */
  detached_at: string | null;
  /** A download's listing (migration 035): null until the files.list job has read it. */
  listing_status?: 'listed' | 'too-large' | 'broken' | 'not-zip' | null;
  listing_reason?: string | null;
  listing_count?: number | null;
  listing_total?: number | string | null;
  /** JSON: { extension: count } of a listed ZIP. */
  listing_extensions?: string | null;
}

/** A listed ZIP's files, in the archive's order (migration 035). */
export interface FileEntriesTable {
  file_id: number;
  position: number;
  path: string;
  size: number | string;
}

/** The tus locker's leases, shared by every instance (migration 015). */
export interface UploadLocksTable {
  id: string;
  owner: string;
  expires_at: string;
  release_requested: Generated<number>;
}

/** An admin's authenticator key (migration 030); the key is encrypted (modules/auth/totp.ts) and never served. */
export interface AdminTotpTable {
  admin_id: number;
  secret_enc: string;
  created_at: string;
  /** Null while enrolment is unconfirmed. */
  confirmed_at: string | null;
  /** The last accepted 30-second time step: a code is accepted once. */
  last_step: number | null;
}

/** Recovery codes (migration 030): argon2id hashes, spent once. */
export interface AdminRecoveryCodesTable {
  id: Generated<number>;
  admin_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** The step between a right password and a session (migration 030); id is a keyed hash of the challenge. */
export interface SignInChallengesTable {
  id: string;
  admin_id: number;
  purpose: 'second_factor' | 'enrol';
  created_at: string;
  expires_at: string;
  failures: Generated<number>;
}

/** Site-wide security choices (migration 030), such as the second-factor policy. */
export interface SecuritySettingsTable {
  key: string;
  value: string;
  updated_at: string;
  admin_id: number | null;
}

/** A resource's external link as last checked (migration 034, modules/links). */
export interface ResourceLinksTable {
  resource_id: number;
  link: 'download' | 'thumbnail';
  /** The link checked: the row is stale once the resource's link is another. */
  url: string;
  state: 'ok' | 'broken';
  status: number | null;
  reason: string | null;
  checked_at: string;
}

/** One row per scheduled link check: the instance whose insert wins queues it (migration 034). */
export interface LinkCheckRunsTable {
  slot: string;
  job_id: number | null;
  created_at: string;
}

/** Each running server's heartbeat (migration 036), for the System page. */
export interface InstancesTable {
  id: string;
  hostname: string;
  pid: number;
  version: string;
  started_at: string;
  seen_at: string;
}

export interface Tables {
  uploads: UploadsTable;
  files: FilesTable;
  file_entries: FileEntriesTable;
  upload_locks: UploadLocksTable;
  resources: ResourcesTable;
  resource_tags: ResourceTagsTable;
  resource_facets: ResourceFacetsTable;
  resource_facets_stale: ResourceFacetsStaleTable;
  announcements: AnnouncementsTable;
  admins: AdminsTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  download_days: DownloadDaysTable;
  settings: SettingsTable;
  server_secrets: ServerSecretsTable;
  media_jobs: MediaJobsTable;
  admin_totp: AdminTotpTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  security_settings: SecuritySettingsTable;
  resource_links: ResourceLinksTable;
  link_check_runs: LinkCheckRunsTable;
  instances: InstancesTable;
}
