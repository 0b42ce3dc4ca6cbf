import type { Module } from '../context';
import { spaModule } from './spa/routes';

/**
 * Every module, in registration order. Add yours above the SPA module: it goes last because
 * it owns the catch-all for non-/api paths.
 */
export const modules: Module[] = [spaModule];
