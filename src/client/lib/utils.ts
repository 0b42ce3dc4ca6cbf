import { type ClassValue, clsx } from 'clsx';
import { createTailwindMerge, getDefaultConfig } from 'tailwind-merge';
import { nextTask } from './tasks';

// tailwind-merge's own twMerge, except that its config can be built ahead (prepareClassMerge).
let defaultConfig: ReturnType<typeof getDefaultConfig> | undefined;
const twMerge = createTailwindMerge(() => defaultConfig ?? getDefaultConfig());

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/**
 * tailwind-merge builds its config and lookup tables on its first call, several milliseconds in
 * one go: the app's start does it here, in two tasks, before the first render needs them.
 */
export async function prepareClassMerge() {
  defaultConfig ??= getDefaultConfig();
  await nextTask();
  twMerge('');
}
