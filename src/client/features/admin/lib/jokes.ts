/** Spec: the login screen's 'Access Denied!' toast carries one of ten joke lines. */
export const ACCESS_DENIED_JOKES = [
  "Nice try, but this fort's for admins only!",
  'The Matrix has you… locked out. Try the red pill: the right password.',
  'Our bouncer checked the list twice. You are not on it.',
  "That password is so wrong even autocorrect won't touch it.",
  'Knock knock. Who’s there? Not an admin, apparently.',
  'Access denied. The vault door just rolled its eyes at you.',
  'Close, but no admin cookie for you.',
  'Our security hamster ran the numbers: nope.',
  'You shall not pass! (Unless you remember the password.)',
  'Error 401: confidence detected, credentials not found.',
] as const;

/** A random line, never the one shown last, so a new toast visibly says something new. */
export function pickJoke(previous?: string, random: () => number = Math.random): string {
  const pool = ACCESS_DENIED_JOKES.filter((j) => j !== previous);
  return pool[Math.floor(random() * pool.length) % pool.length];
}
