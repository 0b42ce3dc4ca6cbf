/**
 * Resolves in a new task: the browser gets to handle input and paint in between. Starting the app
 * is split at these points so that no single task blocks the main thread for long (Lighthouse counts
 * every task over 50 ms of its 4× slowed CPU, i.e. over ~12 ms here, as blocking time).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
