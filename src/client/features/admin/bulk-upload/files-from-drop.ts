/**
 * The files of a drop, folders read through (the browser's entries API); hidden files such as
 * `.DS_Store` are left out. Falls back to the plain file list where entries are not offered.
 */
export async function filesFromDrop(data: DataTransfer): Promise<File[]> {
  const entries = Array.from(data.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => !!e);
  if (entries.length === 0) return visible(Array.from(data.files));
  const lists = await Promise.all(entries.map(readEntry));
  return visible(lists.flat());
}

export const visible = (files: File[]) => files.filter((f) => !f.name.startsWith('.'));

async function readEntry(entry: FileSystemEntry): Promise<File[]> {
  if (entry.isFile) {
    return new Promise((resolve) => (entry as FileSystemFileEntry).file((f) => resolve([f]), () => resolve([])));
  }
  if (!entry.isDirectory) return [];
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const children: FileSystemEntry[] = [];
  // readEntries answers in batches until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve) => reader.readEntries(resolve, () => resolve([])));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  return (await Promise.all(children.map(readEntry))).flat();
}
