import { API } from '@contract/api-paths';
import { DOWNLOAD_TIMEOUT_MS } from '@contract/constants';
import type { DownloadResponse } from '@contract/resources';
import * as React from 'react';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api';
import { openPendingTab } from './pending-tab';

/** Records one download of a resource; the answer carries the link and the new count. */
export function recordDownload(id: number): Promise<DownloadResponse> {
  return api<DownloadResponse>(API.download(id), { method: 'POST', timeoutMs: DOWNLOAD_TIMEOUT_MS });
}

/**
 * Resources being downloaded, app-wide (spec: a per-resource downloading flag): every button for
 * a resource is busy while it downloads, and a download outlives the button that started it
 * (a carousel card scrolled away, a dialog closed).
 */
const downloading = new Set<number>();
const listeners = new Set<() => void>();

function setDownloading(id: number, on: boolean) {
  if (on) downloading.add(id);
  else downloading.delete(id);
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useDownloading(id: number): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => downloading.has(id),
    () => false,
  );
}

/**
 * Saves a hosted file from this page: the link is an attachment (this site's /api/files/… or a
 * presigned bucket URL with an attachment disposition), so following it starts the download and
 * never replaces the page. `download` keeps a same-origin link from ever rendering here.
 */
function saveHere(url: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noreferrer noopener';
  link.referrerPolicy = 'no-referrer';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * Records the download, then takes the visitor to the file. Call it from the click handler itself.
 * An external link opens in the tab opened during the click (so no popup blocker stops it); a
 * hosted file is saved from this page, as a tab sent to an attachment would stay open on
 * "Preparing your download…" (docs/decisions/360-hosted-downloads-without-a-tab.md).
 */
export function startDownload(id: number, { hosted = false, onRecorded }: { hosted?: boolean; onRecorded?: (result: DownloadResponse) => void } = {}) {
  if (downloading.has(id)) return;
  const tab = hosted ? null : openPendingTab();
  setDownloading(id, true);
  recordDownload(id)
    .then((result) => {
      onRecorded?.(result);
      if (!tab) saveHere(result.download_url);
      else if (!tab.go(result.download_url)) throw new Error(`refused download URL for resource ${id}`);
    })
    .catch((err: unknown) => {
      tab?.cancel();
      console.warn('Download failed:', err);
      toast({ title: 'Download Failed', description: 'Unable to download resource. Please try again later.', variant: 'destructive' });
    })
    .finally(() => setDownloading(id, false));
}
