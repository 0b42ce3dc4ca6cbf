/**
 * The one rule by which text is compared in search and tag filters, on every database and code path
 * (docs/decisions/105-search-unicode-folding.md): compatibility-normalized (NFKC: full-width letters,
 * ligatures, a decomposed é and the composed one all become one form), invisible format characters
 * dropped (soft hyphen, zero-width joiners), then case-folded fully: lower case of the upper case of
 * the lower case, so ß and ẞ fold to "ss" like SS, final ς to σ, and the Turkish İ and ı to i like I.
 * Idempotent: folding a folded text changes nothing (tested over every code point).
 *
 * The server stores the folded text (search_text, tag keys) and folds the query the same way, so
 * neither database folds case itself.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .replace(/\u0130/g, 'i')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(/\u03c2/g, '\u03c3')
    .normalize('NFKC');
}
