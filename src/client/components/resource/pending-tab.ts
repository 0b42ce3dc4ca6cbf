/**
 * Opening a download in a new tab, without a referrer, without an opener and without the popup
 * blocker.
 *
 * The tab must be opened inside the click (user activation), but the URL is only known once the
 * download is recorded. So a blank tab is opened at once and navigated later. Navigating it with
 * `location.replace` from this page would send our origin as Referer (the initiator's policy
 * applies), so the tab follows a `rel="noreferrer"` link inside its own document instead.
 */
export interface PendingTab {
  /** Sends the tab to the download; false when the URL is not http(s) (the tab is closed then). */
  go(url: string): boolean;
  /** Closes the tab (the download failed). */
  cancel(): void;
}

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export function openPendingTab(): PendingTab {
  const tab = window.open('', '_blank');
  if (tab) {
    // The download site must not be able to script or redirect this page.
    tab.opener = null;
    try {
      tab.document.title = 'Preparing download…';
      tab.document.body.textContent = 'Preparing your download…';
      tab.document.body.style.cssText = 'font: 16px system-ui, sans-serif; padding: 2rem; color: #555';
    } catch {
      /* a browser that gives a cross-origin blank tab: it still navigates below */
    }
  }
  return {
    go(url) {
      if (!isHttpUrl(url)) {
        tab?.close();
        return false;
      }
      if (!tab) {
        // The blank tab was blocked after all: one more try, without opener or referrer.
        window.open(url, '_blank', 'noopener,noreferrer');
        return true;
      }
      // Closed by the visitor while waiting: they changed their mind.
      if (tab.closed) return true;
      try {
        const link = tab.document.createElement('a');
        link.href = url;
        link.rel = 'noreferrer noopener';
        link.referrerPolicy = 'no-referrer';
        tab.document.body.append(link);
        link.click();
      } catch {
        tab.location.replace(url);
      }
      return true;
    },
    cancel() {
      tab?.close();
    },
  };
}
