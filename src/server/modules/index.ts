import type { Module } from '../context';

/**
 * Every module, in registration order. Add yours here (one line). The SPA module goes last:
 * it owns the catch-all for non-/api paths.
 */
export const modules: Module[] = [];
