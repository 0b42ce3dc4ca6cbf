/** Text for HTML (element content and quoted attribute values) and for XML. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * JSON that is safe inside `<script type="application/json">` (or ld+json): no `<` at all, so no
 * text (a title such as `</script><script>…`) can close the element; JSON.parse reads \u003c back
 * as `<`. U+2028/2029 are escaped for readers that take the JSON as JavaScript.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
