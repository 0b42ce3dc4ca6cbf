import { CATALOGUE_COLUMNS, type CatalogueColumn, IMPORT_ROWS_MAX } from '../../../contract/catalogue';
import { badRequest } from '../../errors';
import { CsvError, parseCsv, unguard } from './csv';

/** One data row of an import: its spreadsheet row number (the header is row 1) and its cells by column. */
export interface ImportLine {
  row: number;
  cells: Partial<Record<CatalogueColumn, string>>;
}

export interface ImportTable {
  columns: Set<CatalogueColumn>;
  lines: ImportLine[];
}

const known = new Set<string>(CATALOGUE_COLUMNS);
const refuse = (message: string) => badRequest(message, { file: message });

/**
 * The CSV as a table, or a 400 saying what is wrong with it as a whole (then no row is looked at):
 * unreadable CSV, an unknown, repeated or missing `id` column, a row with another number of
 * fields than the header, no rows or too many. Cells lose the export's formula guard.
 */
export function readImportTable(text: string): ImportTable {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvError) throw refuse(`The CSV cannot be read: ${err.message}`);
    throw err;
  }
  const [header, ...rest] = records;
  if (!header) throw refuse('The file is empty');
  const names = header.map((h) => h.trim());
  const columns = new Set<CatalogueColumn>();
  for (const name of names) {
    if (!known.has(name)) throw refuse(`Unknown column "${name.slice(0, 40)}": the columns are the export's (${CATALOGUE_COLUMNS.join(', ')})`);
    if (columns.has(name as CatalogueColumn)) throw refuse(`The column "${name}" appears twice`);
    columns.add(name as CatalogueColumn);
  }
  if (!columns.has('id')) throw refuse('The header needs an id column (empty on the rows of new resources)');
  const lines: ImportLine[] = [];
  rest.forEach((record, i) => {
    const row = i + 2;
    if (record.length === 1 && record[0] === '') return; // a blank line
    if (record.length !== names.length) throw refuse(`Row ${row} has ${record.length} fields; the header has ${names.length}`);
    const cells: ImportLine['cells'] = {};
    names.forEach((name, c) => {
      cells[name as CatalogueColumn] = unguard(record[c]);
    });
    lines.push({ row, cells });
  });
  if (lines.length === 0) throw refuse('The file has a header and no rows');
  if (lines.length > IMPORT_ROWS_MAX) throw refuse(`At most ${IMPORT_ROWS_MAX} rows at once`);
  return { columns, lines };
}
