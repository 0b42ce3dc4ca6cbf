import { ERROR_CODES } from '../../../contract/errors';
import {
  type AdminSettings,
  LEGAL_PAGES,
  type LegalPageKey,
  SETTINGS_SECTIONS,
  type SettingsPatch,
  type SettingsSections,
} from '../../../contract/settings';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import { HttpError } from '../../http-error';
import { nowIso } from '../../time';
import { wakeJobRunners } from '../../jobs/queue';
import { afterAttach } from '../files/attach';
import type { Uploads } from '../files/uploads';
import { attachImage, type ImageSlot, type PreparedImage, prepareImage, siteMediaOf } from './media';
import { attachPromoVideo, preparePromoVideo, promoVideoJob } from './promo-video';
import { type AuditActor, recordAudit } from '../audit/record';
import { getVersion, insertVersion, lockSettings, normalizeSections, readSettings, type SavedSettings, writeMedia, writeSections } from './queries';

/**
 * The one way the settings are written (docs/decisions/380-the-owners-settings.md), like a
 * resource's save: uploads are checked first (outside the transaction); then one transaction
 * refuses a stale `base_version` (409), writes each section sent whole, attaches or drops the
 * media, and records the version (who, when, what changed, the sections after it), keeping the
 * newest. A save that changes nothing writes nothing. The request body was validated whole before
 * this runs: a bad field saves nothing.
 */

export interface SaveSettings {
  adminId: number;
  /** Who saves, for the audit log (settings.save, or settings.restore with restoredFrom). */
  actor: AuditActor;
  /** Sections to replace (validated), media by upload id or null; `base_version` to refuse a stale save. */
  patch: SettingsPatch;
  /** Set when this save restores that version. */
  restoredFrom?: number;
}

const IMAGE_FIELDS: Record<ImageSlot, 'logo_upload_id' | 'favicon_upload_id'> = { logo: 'logo_upload_id', favicon: 'favicon_upload_id' };

export async function saveSettings(ctx: AppContext, uploads: Uploads, save: SaveSettings): Promise<AdminSettings> {
  const { database, config } = ctx;
  const { patch } = save;
  const images: Partial<Record<ImageSlot, PreparedImage | null>> = {};
  for (const slot of ['logo', 'favicon'] as const) {
    const id = patch[IMAGE_FIELDS[slot]];
    if (id !== undefined) images[slot] = id === null ? null : await prepareImage(ctx, uploads, id, slot, save.adminId);
  }
  const videoId = patch.promo_video_upload_id;
  const video = videoId === undefined ? undefined : videoId === null ? null : await preparePromoVideo(ctx, uploads, videoId, save.adminId);

  await database.db.transaction().execute(async (trx) => {
    await lockSettings(trx, database);
    const current = await readSettings(trx, config.siteName);
    if (patch.base_version !== undefined && patch.base_version !== current.version) {
      throw new HttpError(409, ERROR_CODES.conflict, 'The settings were saved by someone else meanwhile: reload them to see the changes, then save again');
    }
    const next: SettingsSections = { ...current.sections };
    const changed: string[] = [];
    const sent: Partial<SettingsSections> = {};
    for (const s of SETTINGS_SECTIONS) {
      const value = patch[s];
      if (value === undefined) continue;
      if (JSON.stringify(value) === JSON.stringify(current.sections[s])) continue;
      (sent as Record<string, unknown>)[s] = value;
      (next as Record<string, unknown>)[s] = value;
      changed.push(s);
    }
    const media = { ...current.media };
    for (const slot of ['logo', 'favicon'] as const) {
      const image = images[slot];
      if (image === undefined || (image === null && current.media[slot] === null)) continue;
      (media as Record<string, unknown>)[slot] = await attachImage(trx, slot, current.media[slot], image);
      changed.push(slot);
    }
    if (video !== undefined && !(video === null && current.media.promo_video === null)) {
      media.promo_video = await attachPromoVideo(trx, database, current.media.promo_video, video);
      changed.push('promo_video');
    }
    if (changed.length === 0) return;

    const now = nowIso();
    const legal = sent.legal ? legalWithDates(current, sent.legal, now) : undefined;
    await writeSections(trx, sent, legal);
    if (changed.some((c) => c === 'logo' || c === 'favicon' || c === 'promo_video')) await writeMedia(trx, media);
    const versionId = await insertVersion(trx, { savedAt: now, adminId: save.adminId, changed, restoredFrom: save.restoredFrom ?? null, sections: next });
    // The sections changed, before and after; media by their file (decision 420).
    const mediaFile = (m: unknown) => (m && typeof m === 'object' && 'file_id' in m ? { file_id: (m as { file_id: unknown }).file_id } : null);
    const pick = (sections: SettingsSections, m: typeof media) =>
      Object.fromEntries(changed.map((c) => [c, c in sections ? sections[c as keyof SettingsSections] : mediaFile(m[c as keyof typeof m])]));
    await recordAudit(trx, save.actor, {
      action: save.restoredFrom === undefined ? 'settings.save' : 'settings.restore',
      target: { type: 'settings', id: versionId },
      changes: { ...(save.restoredFrom === undefined ? {} : { restored_from: save.restoredFrom }), before: pick(current.sections, current.media), after: pick(next, media) },
    });
  });

  await afterAttach(ctx, uploads, [...Object.values(images).flatMap((i) => (i ? [i.prepared] : [])), ...(video ? [video] : [])]);
  if (video) wakeJobRunners(database);
  return getAdminSettings(ctx);
}

/** Each page keeps its date unless its text changed. */
function legalWithDates(current: SavedSettings, legal: SettingsSections['legal'], now: string): Record<LegalPageKey, { markdown: string; updated_at: string }> {
  return Object.fromEntries(
    LEGAL_PAGES.map((page) => [
      page,
      { markdown: legal[page], updated_at: legal[page] === current.sections.legal[page] ? current.legalUpdatedAt[page] : now },
    ]),
  ) as Record<LegalPageKey, { markdown: string; updated_at: string }>;
}

/** Restores a kept version: its sections are saved again (each whole), as a new version naming it. */
export async function restoreVersion(ctx: AppContext, uploads: Uploads, id: number, adminId: number, actor: AuditActor): Promise<AdminSettings> {
  const version = await getVersion(ctx.database.db, id);
  if (!version) throw notFound('Settings version not found');
  const stored = (typeof version.stored === 'object' && version.stored !== null ? version.stored : {}) as Record<string, unknown>;
  const sections = normalizeSections(stored, ctx.config.siteName);
  return saveSettings(ctx, uploads, { adminId, actor, patch: sections, restoredFrom: id });
}

/** GET /api/admin/settings. */
export async function getAdminSettings(ctx: AppContext): Promise<AdminSettings> {
  const saved = await readSettings(ctx.database.db, ctx.config.siteName);
  return {
    ...saved.sections,
    media: { ...siteMediaOf(saved.media), promo_video_job: await promoVideoJob(ctx.database, saved.media) },
    legal_updated_at: saved.legalUpdatedAt,
    version: saved.version,
  };
}
