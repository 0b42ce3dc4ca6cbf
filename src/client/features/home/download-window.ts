/**
 * Opening a download in a new tab without the popup blocker and without a referrer.
 *
 * The blocker only lets a window open during the click itself, but the URL arrives later
 * (after the download is recorded). So the click opens a blank, named tab at once and the URL
 * is sent to it afterwards. Setting `location` from this page would send our origin as the
 * Referer (the navigation's source is this document), so the URL is delivered through a
 * link with referrerpolicy="no-referrer" that targets the tab by name.
 */

const isWebUrl = (url: string) => {
  try {
    const { protocol } = new URL(url, window.location.href);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
};

export interface PendingTab {
  /** Sends the tab to `url`; false when the URL is not http(s) (the tab is closed then). */
  go(url: string): boolean;
  close(): void;
}

export function openPendingTab(): PendingTab {
  const name = `rv-download-${Math.random().toString(36).slice(2)}`;
  const tab = window.open('', name);
  if (tab) {
    // The download site must not reach back into this page.
    tab.opener = null;
    try {
      tab.document.title = 'Preparing download…';
      tab.document.body.textContent = 'Preparing your download…';
    } catch {
      // A browser that gives the blank tab another origin: the message is only cosmetic.
    }
  }

  const follow = (url: string, target: string, rel: string) => {
    const link = document.createElement('a');
    link.href = url;
    link.target = target;
    link.rel = rel;
    link.referrerPolicy = 'no-referrer';
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  };

  return {
    go(url) {
      if (!isWebUrl(url)) {
        tab?.close();
        return false;
      }
      if (tab && !tab.closed) follow(url, name, 'noopener');
      // The blocker refused the blank tab: try once more (may be refused again, nothing lost).
      else follow(url, '_blank', 'noopener noreferrer');
      return true;
    },
    close() {
      if (tab && !tab.closed) tab.close();
    },
  };
}
