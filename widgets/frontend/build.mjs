// Bundle src/ into the `sloth` Voila template's static folder: the front end (one script and
// one stylesheet), the page's small early script, and the Font Awesome webfonts (woff2 only)
// that the widgets' button icons use.
//
//   cd widgets/frontend && npm ci && npm run build        (or: make frontend)
//
// The bundle is committed, so playing or testing never needs Node. Its first line records a
// hash of every input (src/, package-lock.json, this file); tests/test_frontend_bundle.py
// fails when a source changed and the bundle was not rebuilt.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const OUT = '../voila_template/sloth/static';

export function inputsHash() {
  const files = ['build.mjs', 'package-lock.json',
    ...readdirSync('src').sort().map((name) => join('src', name))];
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file + '\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

// Font Awesome's CSS lists five font formats per face; every browser that runs the widgets
// takes woff2, so keep only that one and ship only those files.
const woff2Only = {
  name: 'woff2-only',
  setup(build) {
    build.onLoad({ filter: /fontawesome-free[\\/]css[\\/].*\.css$/ }, (args) => {
      const css = readFileSync(args.path, 'utf8').replace(
        /src:url\([^)]*\.eot\);src:[^;}]*?url\(([^)]*\.woff2)\) format\("woff2"\)[^;}]*/g,
        'src:url($1) format("woff2")');
      return { contents: css, loader: 'css' };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
const hash = inputsHash();
await esbuild.build({
  entryPoints: { 'sloth-voila': 'src/main.js', 'sloth-voila-early': 'src/early.js' },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  outdir: OUT,
  assetNames: 'fonts/[name]-[hash]',
  loader: { '.woff2': 'file' },
  plugins: [woff2Only],
  // ipywidgets imports sanitize-html only for WidgetManager.inline_sanitize, overridden in main.js
  alias: { 'sanitize-html': './src/sanitize.js' },
  banner: { js: `/* sloth-voila inputs sha256:${hash} */`, css: `/* sloth-voila inputs sha256:${hash} */` },
  legalComments: 'linked',
  logLevel: 'info',
});
writeFileSync(join(OUT, 'INPUTS.sha256'), hash + '\n');
