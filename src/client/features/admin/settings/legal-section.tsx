import { type AdminSettings, type LegalPageKey, SETTINGS_LIMITS } from '@contract/settings';
import { format } from 'date-fns';
import { AlertTriangle } from 'lucide-react';
import * as React from 'react';
import { Skeleton, Spinner } from '@/components/ui/primitives';
import { previewMarkdown } from '../api/preview-markdown';
import { SourceChoices } from '../components/media-source-field';
import { errorMessage, isSessionError } from '../lib/errors';
import { SectionActions, SectionCard, TextField } from './fields';
import { useSectionForm } from './use-section-form';

/** Wait this long after the last key before asking the server for a preview. */
const PREVIEW_DEBOUNCE_MS = 400;

const PAGES: Record<LegalPageKey, string> = { privacy: 'Privacy Policy', terms: 'Terms of Service' };

/** Legal pages: each in Markdown, with the server's rendering of it beside the editor. */
export function LegalSection({ settings }: { settings: AdminSettings }) {
  const controls = useSectionForm('legal', settings);
  const { form } = controls;
  const [page, setPage] = React.useState<LegalPageKey>('privacy');
  const markdown = form.watch(page);
  const updated = settings.legal_updated_at[page];

  return (
    <form noValidate onSubmit={controls.onSubmit} className="grid gap-6">
      <SectionCard
        title={PAGES[page]}
        description={
          <>
            Written in Markdown: headings with #, lists with -, links as [text](https://…); {'{site}'} becomes the site name. HTML is shown as text, and only http(s) and mailto: links work.
            Last updated {format(new Date(updated), 'MMMM d, yyyy')}.
          </>
        }
      >
        <div className="grid gap-2">
          <span id="legal-page-choice" className="text-sm font-medium leading-none">
            Page
          </span>
          <SourceChoices<LegalPageKey>
            name="legal-page"
            labelledBy="legal-page-choice"
            value={page}
            onChange={setPage}
            choices={[['privacy', PAGES.privacy], ['terms', PAGES.terms]]}
          />
        </div>
        <div className="grid gap-6 xl:grid-cols-2">
          <TextField
            key={page}
            form={form}
            prefix="legal"
            name={page}
            label={`${PAGES[page]} (Markdown)`}
            multiline
            rows={24}
            maxLength={SETTINGS_LIMITS.markdown}
            className="[&_textarea]:min-h-[28rem] [&_textarea]:font-mono [&_textarea]:text-sm"
          />
          <MarkdownPreview markdown={markdown} title={PAGES[page]} />
        </div>
      </SectionCard>
      <SectionActions
        label="Legal pages"
        dirty={controls.dirty}
        saving={controls.saving}
        conflict={controls.conflict}
        onDiscard={controls.discard}
        onLoadLatest={controls.loadLatest}
      />
    </form>
  );
}

/** The server's rendering of `markdown` (the same renderer and sanitiser as the public page), asked for once typing pauses. */
function MarkdownPreview({ markdown, title }: { markdown: string; title: string }) {
  const [state, setState] = React.useState<{ html?: string; error?: string; loading: boolean }>({ loading: true });
  React.useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    const timer = setTimeout(() => {
      previewMarkdown(markdown, controller.signal).then(
        ({ html }) => setState({ html, loading: false }),
        (err: unknown) => {
          if (controller.signal.aborted || isSessionError(err)) return;
          setState((s) => ({ html: s.html, error: errorMessage(err), loading: false }));
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [markdown]);

  return (
    <div className="grid content-start gap-2">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium leading-none">Preview</span>
        {state.loading && state.html !== undefined && (
          <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
            <Spinner className="size-3" /> Updating…
          </span>
        )}
      </div>
      {/* Focusable: it scrolls on its own, and a keyboard must be able to scroll it. */}
      <div role="region" tabIndex={0} aria-label={`${title} preview`} aria-busy={state.loading} className="max-h-[40rem] min-h-[28rem] overflow-y-auto rounded-lg border bg-background p-5 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
        {state.error && (
          <p role="alert" className="mb-4 flex items-start gap-2 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
            <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            The preview could not be updated: {state.error}
          </p>
        )}
        {state.html !== undefined ? (
          // The server's sanitised HTML: the same markup the public page shows.
          <div className="rv-prose" dangerouslySetInnerHTML={{ __html: state.html }} />
        ) : (
          !state.error && (
            <div className="grid gap-3">
              <Skeleton className="h-6 w-1/2" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-4 w-5/6" />
            </div>
          )
        )}
      </div>
    </div>
  );
}
