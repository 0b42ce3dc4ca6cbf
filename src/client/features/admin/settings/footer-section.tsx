import { type AdminSettings, SETTINGS_LIMITS } from '@contract/settings';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import * as React from 'react';
import { type FieldArrayPath, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { copyrightLine } from '@/lib/copyright';
import { SectionActions, SectionCard, TextField } from './fields';
import { IconPicker } from './icon-picker';
import { movedAnnouncement, type SectionFormValues } from './section-values';
import { useSectionForm } from './use-section-form';

type Values = SectionFormValues['footer'];
type Form = UseFormReturn<Values>;
const PREFIX = 'footer';

/** Footer: about text, quick links, social icons, the source-code link and the copyright line. */
export function FooterSection({ settings }: { settings: AdminSettings }) {
  const controls = useSectionForm('footer', settings);
  const { form } = controls;
  const start = Number(form.watch('copyright_start_year'));
  const holder = form.watch('copyright_holder');
  const [announcement, setAnnouncement] = React.useState('');

  return (
    <form noValidate onSubmit={controls.onSubmit} className="grid gap-6">
      <p aria-live="assertive" className="sr-only">
        {announcement}
      </p>
      <SectionCard title="About" description="The footer's “About Me” column.">
        <TextField form={form} prefix={PREFIX} name="about" label="About text" multiline rows={4} maxLength={SETTINGS_LIMITS.about} />
      </SectionCard>
      <SectionCard title="Quick Links" description="Links to sections of the home page (/#categories), other pages (/community) or other sites.">
        <LinkList
          form={form}
          name="quick_links"
          max={SETTINGS_LIMITS.quickLinks}
          noun="link"
          empty={{ label: '', href: '/' }}
          announce={setAnnouncement}
          render={(i) => (
            <div className="grid flex-1 gap-3 sm:grid-cols-2">
              <TextField form={form} prefix={PREFIX} name={`quick_links.${i}.label`} label="Label" required maxLength={SETTINGS_LIMITS.label} />
              <TextField form={form} prefix={PREFIX} name={`quick_links.${i}.href`} label="Link" required inputMode="url" placeholder="/#categories or https://…" />
            </div>
          )}
          labelOf={(i) => form.getValues(`quick_links.${i}.label`)}
        />
      </SectionCard>
      <SectionCard title="Social icons" description="The footer's “Connect” column: one round icon per link.">
        <LinkList
          form={form}
          name="socials"
          max={SETTINGS_LIMITS.socials}
          noun="social link"
          empty={{ label: '', icon: 'generic', link: '' }}
          announce={setAnnouncement}
          render={(i) => (
            <div className="grid flex-1 gap-3">
              <div className="grid gap-3 sm:grid-cols-2">
                <TextField form={form} prefix={PREFIX} name={`socials.${i}.label`} label="Label" required maxLength={SETTINGS_LIMITS.cardName} hint="Read out by screen readers" />
                <TextField form={form} prefix={PREFIX} name={`socials.${i}.link`} label="Link" required inputMode="url" placeholder="https://…" />
              </div>
              <IconPicker form={form} name={`socials.${i}.icon`} id={`${PREFIX}-socials-${i}-icon`} />
            </div>
          )}
          labelOf={(i) => form.getValues(`socials.${i}.label`)}
        />
      </SectionCard>
      <SectionCard title="Source code and copyright">
        <TextField
          form={form}
          prefix={PREFIX}
          name="source_code_url"
          label="Source code link"
          inputMode="url"
          placeholder="https://github.com/…"
          hint="Leave empty to hide the Source Code column"
        />
        <div className="grid gap-5 sm:grid-cols-[10rem_minmax(0,1fr)]">
          <TextField form={form} prefix={PREFIX} name="copyright_start_year" label="Start year" required number />
          <TextField
            form={form}
            prefix={PREFIX}
            name="copyright_holder"
            label="Copyright holder"
            maxLength={SETTINGS_LIMITS.copyrightHolder}
            hint="Leave empty to use the site name"
          />
        </div>
        <p className="rounded-lg bg-muted/60 px-3 py-2 text-sm">
          Shows as: <span className="font-medium">{copyrightLine(Number.isFinite(start) ? start : new Date().getFullYear(), new Date().getFullYear(), holder || settings.site.name)}</span>{' '}
          <span className="text-muted-foreground">(the current year is added by itself)</span>
        </p>
      </SectionCard>
      <SectionActions label="Footer" dirty={controls.dirty} saving={controls.saving} conflict={controls.conflict} onDiscard={controls.discard} onLoadLatest={controls.loadLatest} />
    </form>
  );
}

/** An ordered list of small rows (quick links, social links): add, remove, move up and down. */
function LinkList<N extends FieldArrayPath<Values>>({
  form,
  name,
  max,
  noun,
  empty,
  render,
  labelOf,
  announce,
}: {
  form: Form;
  name: N;
  max: number;
  noun: string;
  empty: Values[N][number];
  render(index: number): React.ReactNode;
  labelOf(index: number): string;
  announce(message: string): void;
}) {
  const list = useFieldArray({ control: form.control, name });
  const move = (from: number, to: number) => {
    list.move(from, to);
    announce(movedAnnouncement(labelOf(from), to, list.fields.length));
  };
  return (
    <div className="grid gap-3">
      {list.fields.length === 0 && <p className="rounded-lg border border-dashed p-4 text-center text-sm text-muted-foreground">None: the column is hidden.</p>}
      <ol className="grid gap-3">
        {list.fields.map((field, i) => {
          const label = labelOf(i) || `${noun} ${i + 1}`;
          return (
            <li key={field.id} className="flex flex-col gap-3 rounded-lg border bg-background/60 p-3 sm:flex-row sm:items-start">
              {render(i)}
              <div className="flex shrink-0 gap-1 sm:mt-6">
                <Button type="button" size="icon" variant="ghost" className="size-9" aria-label={`Move ${label} up`} title="Move up" disabled={i === 0} onClick={() => move(i, i - 1)}>
                  <ArrowUp aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="size-9"
                  aria-label={`Move ${label} down`}
                  title="Move down"
                  disabled={i === list.fields.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  <ArrowDown aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="size-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
                  aria-label={`Remove ${label}`}
                  title="Remove"
                  onClick={() => {
                    list.remove(i);
                    announce(`${label} removed`);
                  }}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" disabled={list.fields.length >= max} onClick={() => list.append(structuredClone(empty) as never)}>
          <Plus aria-hidden="true" /> Add {noun}
        </Button>
        <span className="text-xs text-muted-foreground">
          {list.fields.length} of {max}
        </span>
      </div>
    </div>
  );
}
