import { type AdminSettings, type CommunityCard, SETTINGS_LIMITS } from '@contract/settings';
import { ArrowDown, ArrowUp, ChevronDown, Eye, EyeOff, GripVertical, Plus, Trash2 } from 'lucide-react';
import * as React from 'react';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Badge, Input, Label } from '@/components/ui/primitives';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { socialIcon } from '@/lib/social-icon';
import { cn } from '@/lib/utils';
import { describedBy } from '../components/form-field';
import { fieldError, fieldId, SectionActions, SectionCard, TextField } from './fields';
import { IconPicker } from './icon-picker';
import { keyboardMoveTarget, movedAnnouncement, type SectionFormValues } from './section-values';
import { useSectionForm } from './use-section-form';

type Form = UseFormReturn<SectionFormValues['community']>;

const NEW_CARD: CommunityCard = { name: '', link: '', color: '#7C3AED', description: '', icon: 'generic', hidden: false };
const PREFIX = 'community';

/**
 * Community: the link cards on /community, in order. Each can be edited, hidden, removed (with
 * Undo) and moved: dragged by its handle, or with the keyboard (arrow keys on the handle, or the
 * Move up / Move down buttons), each move announced.
 */
export function CommunitySection({ settings }: { settings: AdminSettings }) {
  const controls = useSectionForm('community', settings);
  const { form } = controls;
  const cards = useFieldArray({ control: form.control, name: 'items' });
  const values = form.watch('items');
  const [open, setOpen] = React.useState<Set<string>>(() => new Set());
  const [announcement, setAnnouncement] = React.useState('');
  const [dragFrom, setDragFrom] = React.useState<number | null>(null);
  const [dragOver, setDragOver] = React.useState<number | null>(null);
  const focusAfterMove = React.useRef<string | null>(null);
  const full = cards.fields.length >= SETTINGS_LIMITS.communityCards;
  const listError = fieldError(form, 'items');

  React.useEffect(() => {
    if (!focusAfterMove.current) return;
    document.getElementById(focusAfterMove.current)?.focus();
    focusAfterMove.current = null;
  });

  const move = (from: number, to: number, focus?: 'handle' | 'up' | 'down') => {
    if (to < 0 || to >= cards.fields.length || from === to) return;
    const id = cards.fields[from]!.id;
    cards.move(from, to);
    setAnnouncement(movedAnnouncement(values[from]?.name ?? '', to, cards.fields.length));
    // At either end a Move button is disabled: the handle takes the focus then.
    const edge = (focus === 'up' && to === 0) || (focus === 'down' && to === cards.fields.length - 1);
    if (focus) focusAfterMove.current = `${PREFIX}-${id}-${edge ? 'handle' : focus}`;
  };

  const remove = (index: number) => {
    const card = form.getValues(`items.${index}`);
    cards.remove(index);
    setAnnouncement(`${card.name || 'Card'} removed`);
    const t = toast({
      title: `“${card.name || 'Untitled card'}” removed`,
      description: 'It goes from the site when you save.',
      action: (
        <Button
          type="button"
          size="sm"
          variant="outline"
          onClick={() => {
            cards.insert(Math.min(index, form.getValues('items').length), card);
            t.dismiss();
          }}
        >
          Undo
        </Button>
      ),
    });
  };

  const add = () => {
    cards.append({ ...NEW_CARD }, { shouldFocus: false });
    // The new card opens, its name first.
    setTimeout(() => {
      const added = form.getValues('items').length - 1;
      form.setFocus(`items.${added}.name`);
    }, 0);
  };

  return (
    <form noValidate onSubmit={controls.onSubmit} className="grid gap-6">
      <SectionCard
        title="Community cards"
        description={`Shown on the Community page in this order. Drag a card by its handle, or focus the handle and use the arrow keys. At most ${SETTINGS_LIMITS.communityCards} cards.`}
      >
        <p id="community-reorder-help" className="sr-only">
          Press the up or down arrow key to move this card one place, Home or End to move it to the top or the bottom.
        </p>
        <p aria-live="assertive" className="sr-only">
          {announcement}
        </p>
        {cards.fields.length === 0 && <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">No cards yet. The Community page shows none until you add one.</p>}
        <ol className="grid gap-3">
          {cards.fields.map((field, index) => {
            const card = values[index] ?? NEW_CARD;
            const hasError = Boolean(fieldError(form, `items.${index}`)) || Object.keys((form.formState.errors.items?.[index] ?? {}) as object).length > 0;
            const expanded = open.has(field.id) || hasError || card.name === '';
            const Icon = socialIcon(card.icon);
            const name = card.name || 'Untitled card';
            return (
              <li
                key={field.id}
                draggable={dragFrom === index}
                onDragStart={(e) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', String(index));
                }}
                onDragOver={(e) => {
                  if (dragFrom === null) return;
                  e.preventDefault();
                  setDragOver(index);
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragFrom !== null) move(dragFrom, index);
                  setDragFrom(null);
                  setDragOver(null);
                }}
                onDragEnd={() => {
                  setDragFrom(null);
                  setDragOver(null);
                }}
                className={cn(
                  'rounded-xl border bg-background/60 transition-shadow',
                  dragOver === index && dragFrom !== index && 'ring-2 ring-primary',
                  dragFrom === index && 'opacity-60',
                  hasError && 'border-destructive',
                )}
              >
                <div className="flex items-center gap-2 p-2 sm:gap-3 sm:p-3">
                  <button
                    type="button"
                    id={`${PREFIX}-${field.id}-handle`}
                    aria-label={`Reorder ${name}, position ${index + 1} of ${cards.fields.length}`}
                    aria-describedby="community-reorder-help"
                    onPointerDown={() => setDragFrom(index)}
                    onPointerUp={() => dragOver === null && setDragFrom(null)}
                    onKeyDown={(e) => {
                      const to = keyboardMoveTarget(e.key, index, cards.fields.length);
                      if (to === null) return;
                      e.preventDefault();
                      move(index, to, 'handle');
                    }}
                    className="grid size-9 shrink-0 cursor-grab touch-none place-items-center rounded-md text-muted-foreground outline-none hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 active:cursor-grabbing"
                  >
                    <GripVertical aria-hidden="true" className="size-5" />
                  </button>
                  <span aria-hidden="true" className="grid size-9 shrink-0 place-items-center rounded-lg text-white shadow-sm" style={{ backgroundColor: /^#[0-9a-f]{6}$/i.test(card.color) ? card.color : '#888888' }}>
                    <Icon className="size-5" />
                  </span>
                  <div className="grid min-w-0 flex-1">
                    <span className={cn('truncate font-medium', card.hidden && 'text-muted-foreground line-through decoration-1')}>{name}</span>
                    <span className="truncate text-xs text-muted-foreground">{card.link || 'No link yet'}</span>
                  </div>
                  {card.hidden && <Badge variant="outline">Hidden</Badge>}
                  <div className="flex shrink-0 items-center">
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      className="hidden size-9 sm:inline-flex"
                      id={`${PREFIX}-${field.id}-up`}
                      aria-label={`Move ${name} up`}
                      title="Move up"
                      disabled={index === 0}
                      onClick={() => move(index, index - 1, 'up')}
                    >
                      <ArrowUp aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      className="hidden size-9 sm:inline-flex"
                      id={`${PREFIX}-${field.id}-down`}
                      aria-label={`Move ${name} down`}
                      title="Move down"
                      disabled={index === cards.fields.length - 1}
                      onClick={() => move(index, index + 1, 'down')}
                    >
                      <ArrowDown aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      className="size-9"
                      aria-label={card.hidden ? `Show ${name}` : `Hide ${name}`}
                      title={card.hidden ? 'Show' : 'Hide'}
                      onClick={() => form.setValue(`items.${index}.hidden`, !card.hidden, { shouldDirty: true })}
                    >
                      {card.hidden ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                    </Button>
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      className="size-9"
                      aria-expanded={expanded}
                      aria-controls={`${PREFIX}-${field.id}-editor`}
                      aria-label={`Edit ${name}`}
                      title="Edit"
                      onClick={() =>
                        setOpen((s) => {
                          const next = new Set(s);
                          if (next.has(field.id)) next.delete(field.id);
                          else next.add(field.id);
                          return next;
                        })
                      }
                    >
                      <ChevronDown aria-hidden="true" className={cn('transition-transform', expanded && 'rotate-180')} />
                    </Button>
                  </div>
                </div>
                {expanded && (
                  <div id={`${PREFIX}-${field.id}-editor`} className="grid gap-4 border-t p-4 sm:grid-cols-2">
                    <TextField form={form} prefix={PREFIX} name={`items.${index}.name`} label="Name" required maxLength={SETTINGS_LIMITS.cardName} />
                    <TextField form={form} prefix={PREFIX} name={`items.${index}.link`} label="Link" required inputMode="url" placeholder="https://…" hint="An http(s) or mailto: link" />
                    <ColorField form={form} index={index} />
                    <div className="flex items-center gap-3 self-end pb-2">
                      <Controller
                        control={form.control}
                        name={`items.${index}.hidden`}
                        render={({ field: f }) => <Switch id={fieldId(PREFIX, `items.${index}.visible`)} checked={!f.value} onCheckedChange={(v) => f.onChange(!v)} />}
                      />
                      <Label htmlFor={fieldId(PREFIX, `items.${index}.visible`)}>Shown on the Community page</Label>
                    </div>
                    <TextField
                      form={form}
                      prefix={PREFIX}
                      name={`items.${index}.description`}
                      label="Description"
                      multiline
                      rows={2}
                      maxLength={SETTINGS_LIMITS.cardDescription}
                      className="sm:col-span-2"
                    />
                    <div className="sm:col-span-2">
                      <IconPicker form={form} name={`items.${index}.icon`} id={fieldId(PREFIX, `items.${index}.icon`)} />
                    </div>
                    <div className="flex flex-wrap gap-2 sm:col-span-2">
                      <Button type="button" size="sm" variant="outline" className="sm:hidden" disabled={index === 0} onClick={() => move(index, index - 1)}>
                        <ArrowUp aria-hidden="true" /> Move up
                      </Button>
                      <Button type="button" size="sm" variant="outline" className="sm:hidden" disabled={index === cards.fields.length - 1} onClick={() => move(index, index + 1)}>
                        <ArrowDown aria-hidden="true" /> Move down
                      </Button>
                      <Button type="button" size="sm" variant="ghost" className="ml-auto text-destructive hover:bg-destructive/10 hover:text-destructive" onClick={() => remove(index)}>
                        <Trash2 aria-hidden="true" /> Remove {card.name ? `“${card.name}”` : 'card'}
                      </Button>
                    </div>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
        {listError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {listError}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="outline" onClick={add} disabled={full} aria-describedby={full ? 'community-full' : undefined}>
            <Plus aria-hidden="true" /> Add card
          </Button>
          <span id="community-full" className="text-sm text-muted-foreground">
            {full ? `The limit is ${SETTINGS_LIMITS.communityCards} cards: remove one to add another.` : `${cards.fields.length} of ${SETTINGS_LIMITS.communityCards} cards`}
          </span>
        </div>
      </SectionCard>
      <SectionActions
        label="Community"
        dirty={controls.dirty}
        saving={controls.saving}
        conflict={controls.conflict}
        onDiscard={controls.discard}
        onLoadLatest={controls.loadLatest}
      />
    </form>
  );
}

/** A colour picker and its #rrggbb field, both on one value. */
function ColorField({ form, index }: { form: Form; index: number }) {
  const name = `items.${index}.color` as const;
  const id = fieldId(PREFIX, name);
  const error = fieldError(form, name);
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <div className="grid gap-2">
          <Label htmlFor={id}>
            Colour<span aria-hidden="true" className="ml-0.5 text-destructive">*</span>
          </Label>
          <div className="flex items-center gap-2">
            <input
              type="color"
              aria-label="Colour picker"
              value={/^#[0-9a-f]{6}$/i.test(field.value) ? field.value.toLowerCase() : '#000000'}
              onChange={(e) => field.onChange(e.target.value.toUpperCase())}
              className="h-10 w-12 shrink-0 cursor-pointer rounded-md border bg-background p-1"
            />
            <Input
              id={id}
              value={field.value}
              onChange={(e) => field.onChange(e.target.value)}
              onBlur={field.onBlur}
              ref={field.ref}
              maxLength={7}
              spellCheck={false}
              className="font-mono uppercase"
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy(id, error, true)}
            />
          </div>
          {error ? (
            <p id={`${id}-error`} className="text-sm font-medium text-destructive">
              {error}
            </p>
          ) : (
            <p id={`${id}-hint`} className="text-xs text-muted-foreground">
              #rrggbb, the card&apos;s accent
            </p>
          )}
        </div>
      )}
    />
  );
}
