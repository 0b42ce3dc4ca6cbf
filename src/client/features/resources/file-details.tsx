import type { HostedFile } from '@contract/files';
import type { PublicResource } from '@contract/resources';
import { FileArchive, HardDrive } from 'lucide-react';
import type * as React from 'react';
import { formatBytes } from '@/lib/format';

/** One line of the page's facts list: an icon and a term, and its value. */
export function Fact({ icon, term, children }: { icon: React.ReactNode; term: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="inline-flex items-center gap-2 text-muted-foreground">
        {icon}
        {term}
      </dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

/** A file's format as people name it: its extension (ZIP, CUBE, WAV), else the subtype of its content type. */
export function fileFormat(file: Pick<HostedFile, 'name' | 'content_type'>): string {
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(file.name)?.[1];
  if (ext) return ext.toUpperCase();
  const subtype = file.content_type.split(';')[0].split('/')[1] ?? '';
  return subtype && subtype !== 'octet-stream' ? subtype.toUpperCase() : 'File';
}

/** The hosted file's format and size, as `Fact` lines; nothing for a download that links elsewhere. */
export function FileDetails({ resource }: { resource: Pick<PublicResource, 'file'> }) {
  const { file } = resource;
  if (!file) return null;
  return (
    <>
      <Fact icon={<FileArchive aria-hidden="true" className="size-4" />} term="Format">
        {fileFormat(file)}
      </Fact>
      <Fact icon={<HardDrive aria-hidden="true" className="size-4" />} term="Size">
        {formatBytes(file.size)}
      </Fact>
    </>
  );
}
