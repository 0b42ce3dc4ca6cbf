import { clockDuration, FONT_SCRIPTS, type ResourceFacts } from '@contract/facts';
import type { ContentsEntry } from '@contract/contents';
import type { PublicResource } from '@contract/resources';
import { File, Folder, PackageOpen } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { Badge, Skeleton } from '@/components/ui/primitives';
import { formatBytes, formatNumber } from '@/lib/format';
import { useContentsAll, useContentsFirstPage } from './api/get-contents';

/** Files shown before "Show all N files". */
export const CONTENTS_COLLAPSED = 50;

/**
 * "What's inside" (issue 33): the apps it works in as badges, the facts read from its preview's
 * file, and the hosted ZIP's files as a tree with sizes (collapsed past CONTENTS_COLLAPSED).
 * Nothing when none of these is known.
 */
export function WhatsInside({ resource }: { resource: PublicResource }) {
  const rows = factRows(resource.facts);
  if (resource.apps.length === 0 && rows.length === 0 && !resource.contents) return null;
  return (
    <section aria-labelledby="inside-heading" className="mt-10 grid gap-5">
      <h2 id="inside-heading" className="inline-flex items-center gap-2 text-xl font-semibold tracking-tight">
        <PackageOpen aria-hidden="true" className="size-5" />
        What’s inside
      </h2>
      {resource.apps.length > 0 && (
        <ul aria-label="Works in" className="flex flex-wrap gap-2">
          {resource.apps.map((a) => (
            <li key={a.id}>
              <Badge variant="secondary" className="px-3 py-1 font-medium">
                {a.label}
                {a.min_version ? ` ${a.min_version}+` : ''}
              </Badge>
            </li>
          ))}
        </ul>
      )}
      {rows.length > 0 && (
        <table aria-label="Facts" className="w-full max-w-xl text-sm">
          <tbody>
            {rows.map(([term, value]) => (
              <tr key={term} className="border-b last:border-0">
                <th scope="row" className="py-2 pr-4 text-left font-normal text-muted-foreground">
                  {term}
                </th>
                <td className="py-2 font-medium">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {resource.contents && <Contents resource={resource} />}
    </section>
  );
}

const channels = (n: number) => (n === 1 ? 'Mono' : n === 2 ? 'Stereo' : `${n} channels`);
const scriptLabel = (id: string) => FONT_SCRIPTS.find((s) => s.id === id)?.label ?? id;

/** The facts as table rows: [term, value]. */
export function factRows(facts: ResourceFacts | null): [string, string][] {
  if (!facts) return [];
  const rows: [string, string | null][] = [];
  switch (facts.kind) {
    case 'video':
      rows.push(
        ['Duration', clockDuration(facts.duration)],
        ['Resolution', `${facts.width} × ${facts.height}`],
        ['Orientation', facts.orientation[0]!.toUpperCase() + facts.orientation.slice(1)],
        ['Frame rate', facts.frame_rate === null ? null : `${formatNumber(facts.frame_rate, Number.isInteger(facts.frame_rate) ? 0 : 2)} fps`],
        ['Sound', facts.has_sound === null ? null : facts.has_sound ? 'Yes' : 'No'],
      );
      break;
    case 'audio':
      rows.push(
        ['Duration', clockDuration(facts.duration)],
        ['Channels', facts.channels === null ? null : channels(facts.channels)],
        ['Sample rate', facts.sample_rate === null ? null : `${formatNumber(facts.sample_rate / 1000, facts.sample_rate % 1000 ? 1 : 0)} kHz`],
        ['Loudness', facts.loudness_lufs === null ? null : `${formatNumber(facts.loudness_lufs, 1)} LUFS`],
      );
      break;
    case 'font':
      rows.push(
        ['Family', facts.family],
        ['Styles', facts.styles.join(', ') || null],
        ['Weights', facts.weights.length === 2 ? `${facts.weights[0]}–${facts.weights[1]}` : facts.weights.join(', ') || null],
        ['Glyphs', facts.glyph_count === null ? null : formatNumber(facts.glyph_count)],
        ['Scripts', facts.scripts && facts.scripts.length > 0 ? facts.scripts.map(scriptLabel).join(', ') : null],
        ['Variable axes', Object.keys(facts.axes).length > 0 ? Object.entries(facts.axes).map(([tag, a]) => `${a.name || tag} ${a.min}–${a.max}`).join(', ') : null],
      );
      break;
    case 'lut':
      rows.push(['LUT', facts.type === '3D' ? `3D, ${facts.grid_size} × ${facts.grid_size} × ${facts.grid_size}` : `1D, ${facts.grid_size} points`]);
      break;
    case 'image-pair':
      rows.push(['Dimensions', `${facts.width} × ${facts.height}`]);
      break;
  }
  return rows.filter((r): r is [string, string] => r[1] !== null);
}

function Contents({ resource }: { resource: PublicResource }) {
  const contents = resource.contents!;
  const listed = contents.status === 'listed';
  const [all, setAll] = React.useState(false);
  const first = useContentsFirstPage(resource.id, listed);
  const every = useContentsAll(resource.id, listed && all);
  const count = contents.count ?? 0;

  if (!listed) {
    const file = resource.file;
    return (
      <p className="text-sm text-muted-foreground" data-testid="contents-unlisted">
        {contents.status === 'not-zip'
          ? `${file ? `${file.name} (${formatBytes(file.size)})` : 'The download'}: only ZIP archives have their files listed here.`
          : `The archive’s files are not listed: ${contents.reason ?? 'it could not be read'}.`}
      </p>
    );
  }
  const entries = all && every.data ? every.data : (first.data?.entries ?? []).slice(0, CONTENTS_COLLAPSED);
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        {formatNumber(count)} {count === 1 ? 'file' : 'files'}, {formatBytes(contents.total_size ?? 0)} unpacked
      </p>
      {first.isPending ? (
        <Skeleton className="h-24 w-full max-w-xl" />
      ) : first.isError ? (
        <p className="text-sm text-destructive">The list of files could not be loaded.</p>
      ) : (
        <FileTree entries={entries} />
      )}
      {count > CONTENTS_COLLAPSED && (
        <div>
          {/* Never disabled while loading: a disabled button would drop the keyboard's focus. */}
          <Button variant="outline" size="sm" aria-expanded={all} aria-busy={all && every.isFetching} onClick={() => setAll((v) => !v)}>
            {all ? (every.isFetching ? 'Loading files…' : 'Show fewer files') : `Show all ${formatNumber(count)} files`}
          </Button>
          {all && every.isError && <p className="mt-2 text-sm text-destructive">The list of files could not be loaded.</p>}
        </div>
      )}
    </div>
  );
}

interface TreeNode {
  name: string;
  size: number;
  children: Map<string, TreeNode> | null;
}

/** Paths → folders and files, in the archive's order. */
function buildTree(entries: readonly ContentsEntry[]): TreeNode {
  const root: TreeNode = { name: '', size: 0, children: new Map() };
  for (const e of entries) {
    const parts = e.path.split('/').filter(Boolean);
    let node = root;
    for (const [i, part] of parts.entries()) {
      const leaf = i === parts.length - 1;
      let next = node.children!.get(part + (leaf ? '' : '/'));
      if (!next) {
        next = { name: part, size: 0, children: leaf ? null : new Map() };
        node.children!.set(part + (leaf ? '' : '/'), next);
      }
      next.size += e.size;
      node = next;
    }
  }
  return root;
}

function FileTree({ entries }: { entries: readonly ContentsEntry[] }) {
  const root = React.useMemo(() => buildTree(entries), [entries]);
  return (
    <ul aria-label="Files" className="grid max-w-xl gap-0.5 text-sm">
      <TreeItems node={root} />
    </ul>
  );
}

function TreeItems({ node }: { node: TreeNode }) {
  return [...node.children!.values()].map((child) => (
    <li key={child.name + (child.children ? '/' : '')}>
      <div className="flex items-center justify-between gap-3 py-0.5">
        <span className="inline-flex min-w-0 items-center gap-2">
          {child.children ? <Folder aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" /> : <File aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />}
          <span className="truncate">{child.name}</span>
        </span>
        <span className="shrink-0 tabular-nums text-muted-foreground">{formatBytes(child.size)}</span>
      </div>
      {child.children && (
        <ul className="ml-5 border-l pl-3">
          <TreeItems node={child} />
        </ul>
      )}
    </li>
  ));
}
