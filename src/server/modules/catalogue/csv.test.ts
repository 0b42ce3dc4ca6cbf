import { describe, expect, it } from 'vitest';
import { csvCell, csvRecord, CsvError, parseCsv, unguard } from './csv';

describe('CSV (RFC 4180) with the formula guard', () => {
  it('quotes a cell holding a comma, a quote or a line break, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvRecord(['1', 'x,y', ''])).toBe('1,"x,y",\r\n');
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', "'=1"])('guards %j with one apostrophe, and reading takes it off', (value) => {
    const cell = csvCell(value);
    expect(cell.replace(/^"/, '').startsWith("'")).toBe(true);
    expect(unguard(parseCsv(`${cell}\r\n`)[0][0])).toBe(value);
  });

  it('leaves an apostrophe that is no guard alone', () => {
    expect(csvCell("'quoted'")).toBe("'quoted'");
    expect(unguard("'quoted'")).toBe("'quoted'");
  });

  it('parses quoted fields, doubled quotes, line breaks in fields, CRLF or LF, a BOM and a final line without a break', () => {
    const text = '\ufeffid,title\r\n1,"a, ""b"""\n2,"two\r\nlines"\r\n3,last';
    expect(parseCsv(text)).toEqual([
      ['id', 'title'],
      ['1', 'a, "b"'],
      ['2', 'two\r\nlines'],
      ['3', 'last'],
    ]);
    expect(parseCsv('a,,\r\n')).toEqual([['a', '', '']]);
    expect(parseCsv('""\r\n')).toEqual([['']]);
  });

  it('round-trips any cells', () => {
    const cells = ['', ' spaced ', 'x,"y"\r\nz', '=cmd', "''-", 'ünï ✓'];
    expect(parseCsv(csvRecord(cells))[0].map(unguard)).toEqual(cells);
  });

  it.each([
    ['a quote left open', 'a,"b\r\nc\r\n', /Line 1: a quote is opened and never closed/],
    ['a quote inside a field', 'a,b"c\r\n', /Line 1: a quote inside an unquoted field/],
    ['text after a closing quote', 'x\r\n"a"b\r\n', /Line 2: text after a closing quote/],
  ])('refuses %s, naming the line', (_name, text, message) => {
    expect(() => parseCsv(text)).toThrow(CsvError);
    expect(() => parseCsv(text)).toThrow(message);
  });
});
