import type { PublicResource } from '@contract/resources';
import { Share2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { copyText } from '@/lib/clipboard';

/** The page's canonical address: the server's canonical link when it names this page, else this origin's. */
export function canonicalUrl(resource: Pick<PublicResource, 'url'>): string {
  const link = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (link && new URL(link.href).pathname === resource.url) return link.href;
  return new URL(resource.url, location.origin).href;
}

/** Phones and tablets offer their share sheet; elsewhere the link is copied. */
function prefersShareSheet(): boolean {
  return typeof navigator.share === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

export function ShareButton({ resource }: { resource: Pick<PublicResource, 'title' | 'url'> }) {
  const share = async () => {
    const url = canonicalUrl(resource);
    if (prefersShareSheet()) {
      try {
        await navigator.share({ title: resource.title, url });
        return;
      } catch (err) {
        // Closed by the visitor: nothing to do. Refused for another reason: copy instead.
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    if (await copyText(url)) toast({ title: 'Link copied', description: 'Share it anywhere.', variant: 'success' });
    else toast({ title: 'Copy failed', description: url, variant: 'destructive' });
  };
  return (
    <Button variant="outline" className="w-full" onClick={() => void share()}>
      <Share2 aria-hidden="true" />
      Share
    </Button>
  );
}
