import { type AdminSettings, LIVE_STAT_KEYS, SETTINGS_LIMITS, type StatKey } from '@contract/settings';
import { Controller } from 'react-hook-form';
import { Info } from 'lucide-react';
import { SourceChoices } from '../components/media-source-field';
import { fieldError, SectionActions, SectionCard, TextField } from './fields';
import { useSectionForm } from './use-section-form';

const PREFIX = 'figures';

/** What a live figure counts, in the admin's words. */
const LIVE_MEANING: Record<StatKey, string> = {
  resources: 'Published resources, counted now. Daily, weekly and monthly: those published in the last day, week and month.',
  downloads: 'Counted downloads of every resource. Daily, weekly and monthly: from the per-day download counts.',
  growth: 'How much the catalogue grew, in per cent, from the resources published over the last day, week and month.',
  members: '',
};

const canBeLive = (key: StatKey) => (LIVE_STAT_KEYS as readonly StatKey[]).includes(key);

/** Figures: each “Our Growing Community” figure live (from the database) or fixed (typed). */
export function FiguresSection({ settings }: { settings: AdminSettings }) {
  const controls = useSectionForm('stats', settings);
  const { form } = controls;
  const stats = form.watch('items');
  const listError = fieldError(form, 'items');

  return (
    <form noValidate onSubmit={controls.onSubmit} className="grid gap-6">
      <div className="grid gap-6 xl:grid-cols-2">
        {stats.map((stat, i) => {
          const live = stat.mode === 'live';
          return (
            <SectionCard key={stat.key} title={stat.label || 'Figure'} description={live ? 'Live: computed from the database' : 'Fixed: the figures you type'}>
              <TextField form={form} prefix={PREFIX} name={`items.${i}.label`} label="Label" required maxLength={SETTINGS_LIMITS.label} />
              <div className="grid gap-2">
                <span id={`${PREFIX}-${stat.key}-mode`} className="text-sm font-medium leading-none">
                  Source
                </span>
                {canBeLive(stat.key) ? (
                  <>
                    <Controller
                      control={form.control}
                      name={`items.${i}.mode`}
                      render={({ field }) => (
                        <SourceChoices
                          name={`${PREFIX}-${stat.key}-mode`}
                          labelledBy={`${PREFIX}-${stat.key}-mode`}
                          value={field.value}
                          onChange={field.onChange}
                          choices={[
                            ['live', 'Live'],
                            ['fixed', 'Fixed'],
                          ]}
                        />
                      )}
                    />
                    {live && <p className="text-xs text-muted-foreground">{LIVE_MEANING[stat.key]}</p>}
                  </>
                ) : (
                  <p className="flex items-start gap-2 rounded-md bg-muted/60 px-3 py-2 text-sm text-muted-foreground">
                    <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                    Fixed only: visitors have no accounts, so the site cannot count its community. Type the figure from your channels.
                  </p>
                )}
              </div>
              <div className={live ? 'w-28' : 'grid grid-cols-[minmax(0,1fr)_7rem] gap-3'}>
                {!live && <TextField form={form} prefix={PREFIX} name={`items.${i}.value`} label="Value" required number />}
                <TextField form={form} prefix={PREFIX} name={`items.${i}.suffix`} label="Suffix" maxLength={SETTINGS_LIMITS.suffix} placeholder="+" />
              </div>
              {!live && (
                <fieldset className="grid gap-3">
                  <legend className="mb-2 text-sm font-medium leading-none">Shown when a visitor opens the figure</legend>
                  <div className="grid grid-cols-3 gap-3">
                    <TextField form={form} prefix={PREFIX} name={`items.${i}.daily`} label="Daily" required number />
                    <TextField form={form} prefix={PREFIX} name={`items.${i}.weekly`} label="Weekly" required number />
                    <TextField form={form} prefix={PREFIX} name={`items.${i}.monthly`} label="Monthly" required number />
                  </div>
                </fieldset>
              )}
            </SectionCard>
          );
        })}
      </div>
      {listError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {listError}
        </p>
      )}
      <SectionActions label="Figures" dirty={controls.dirty} saving={controls.saving} conflict={controls.conflict} onDiscard={controls.discard} onLoadLatest={controls.loadLatest} />
    </form>
  );
}
