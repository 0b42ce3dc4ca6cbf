/**
 * The libraries the app starts with (React DOM, the router, the query client: the `vendor` chunk,
 * vite.config.ts). main.tsx imports this first, so they are evaluated in a task of their own, before
 * the app's modules are.
 */
export { createRoot, hydrateRoot } from 'react-dom/client';
export { createBrowserRouter, RouterProvider } from 'react-router';
export { QueryClient, QueryClientProvider } from '@tanstack/react-query';
