import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

const API_TARGET = process.env.API_URL ?? 'http://127.0.0.1:3001';

/**
 * The server-render bundle: `<client dir>/ssr/render.js` (src/server/modules/spa loads it and
 * never serves that folder). Self-contained (every dependency bundled) so a client dir anywhere,
 * e.g. a temp dir, works.
 */
const SSR_DIR = 'ssr';
const RENDER_ENTRY = 'src/client/app/render.tsx';

interface RenderModule {
  RENDER_PATHS: readonly string[];
  initialQueries(url: string): unknown[];
  render(url: string, queries: readonly unknown[], now: number): Promise<string>;
}

/**
 * After the client build: bundles app/render.tsx for Node (same components, routes and CSS
 * classes) into SSR_DIR and renders every public page once with no data, so a page that cannot
 * render on the server fails the build rather than a visitor's request.
 */
function serverRender(): Plugin {
  let outDir = '';
  let skip = true;
  return {
    name: 'resource-vault:server-render',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      skip = Boolean(config.build.ssr) || !config.build.write;
    },
    async closeBundle() {
      if (skip) return;
      const dir = path.join(outDir, SSR_DIR);
      rmSync(dir, { recursive: true, force: true });
      await build({
        configFile: path.resolve(import.meta.dirname, 'vite.config.ts'),
        logLevel: 'warn',
        ssr: { noExternal: true, target: 'node' },
        // React and its router are bundled in: without this they pick their development builds at run time
        // (NODE_ENV is not set by `npm start`), which check every element and prop: ~2× the render's CPU.
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        build: {
          ssr: RENDER_ENTRY,
          outDir: dir,
          emptyOutDir: true,
          copyPublicDir: false,
          minify: false,
          rolldownOptions: { output: { codeSplitting: false, entryFileNames: 'render.js' } },
        },
      });
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      const mod = (await import(pathToFileURL(path.join(dir, 'render.js')).href)) as RenderModule;
      for (const p of mod.RENDER_PATHS) await mod.render(p, [], Date.now());
    },
  };
}

/**
 * main.tsx preloads every file the page's app needs at once, then evaluates them one part per task.
 * It learns the hashed file names from this table, written into the entry chunk in place of
 * APP_CHUNKS_PLACEHOLDER: for each part, its module's chunk and that chunk's static imports.
 */
const APP_CHUNKS_PLACEHOLDER = '__RV_APP_CHUNKS__';
const APP_PARTS = {
  vendor: 'src/client/app/vendor.ts',
  app: 'src/client/app/boot.tsx',
  category: 'src/client/features/categories/category-page.tsx',
} as const;

function appChunks(): Plugin {
  let root = '';
  return {
    name: 'resource-vault:app-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry || !entry.code.includes(APP_CHUNKS_PLACEHOLDER)) return; // the server-render build
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const filesOf = (module: string) => {
        const id = path.resolve(root, module);
        const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
        if (!chunk) throw new Error(`app-chunks: no chunk holds ${module}`);
        const files = new Set<string>();
        const visit = (file: string) => {
          if (files.has(file) || file === entry.fileName) return;
          files.add(file);
          for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
        };
        visit(chunk.fileName);
        return [...files];
      };
      const table = Object.fromEntries(Object.entries(APP_PARTS).map(([part, module]) => [part, filesOf(module)]));
      const literal = new RegExp(`(["'\`])${APP_CHUNKS_PLACEHOLDER}\\1`);
      if (!literal.test(entry.code)) throw new Error('app-chunks: the placeholder is not a plain string literal in the entry chunk');
      entry.code = entry.code.replace(literal, JSON.stringify(JSON.stringify(table)));
    },
  };
}

/**
 * Every lucide icon of the build (client and server render) made by src/client/lib/lucide-icon.ts in
 * place of lucide's own `createLucideIcon`: the same markup, built once per icon instead of on every
 * render (decision 461). Each icon module of lucide-react imports it as `../createLucideIcon.mjs`; a
 * build in which none does (lucide's files renamed) stops here rather than quietly going back.
 */
function leanIcons(): Plugin {
  const replacement = path.resolve(import.meta.dirname, 'src/client/lib/lucide-icon.ts');
  const iconModule = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/][^\\/]+\.mjs$/;
  let replaced = 0;
  return {
    name: 'resource-vault:lean-icons',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== '../createLucideIcon.mjs' || !importer || !iconModule.test(importer)) return null;
      replaced += 1;
      return replacement;
    },
    buildEnd(error) {
      if (!error && replaced === 0) this.error('lean-icons: no lucide icon imported ../createLucideIcon.mjs; update the plugin for this lucide-react');
    },
  };
}

/** React, React DOM and its scheduler, the router and the query client: evaluated before the app (app/vendor.ts). */
const VENDOR_MODULES = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query))[\\/]/;

export default defineConfig({
  root: '.',
  plugins: [leanIcons(), react(), tailwindcss(), appChunks(), serverRender()],
  resolve: {
    alias: {
      '@contract': path.resolve(import.meta.dirname, 'src/contract'),
      '@': path.resolve(import.meta.dirname, 'src/client'),
    },
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    assetsInlineLimit: 0,
    // No preload links from Vite's import() helper: main.tsx preloads what the page starts with
    // (appChunks); a chunk loaded later (header widgets, carousel, other pages) fetches its own
    // imports as the browser reads it, instead of ~20 links being added inside one render task.
    modulePreload: false,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'vendor', test: VENDOR_MODULES }] } },
    },
  },
  server: {
    proxy: {
      '/api': API_TARGET,
      '/thumbnails': API_TARGET,
      '/healthz': API_TARGET,
    },
  },
});
