/** Every admin query key starts with this, so signing out can drop them all at once. */
export const ADMIN_QUERY_SCOPE = ['admin'] as const;
