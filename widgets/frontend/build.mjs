// Bundle src/ into the `sloth` Voila template's static folder: the front end (one script and
// one stylesheet), the page's small early script, and the Font Awesome webfonts (woff2 only)
// that the widgets' button icons use.
//
//   cd widgets/frontend && npm ci && npm run build        (or: make frontend)
//
// The bundle is committed, so playing or testing never needs Node. Its first line records a
// hash of every input (src/, package-lock.json, this file); tests/test_frontend_bundle.py
// fails when a source changed and the bundle was not rebuilt. Beside it, BUILT_AGAINST.json
// records what the bundle was built against (the @jupyter-widgets/* npm packages, and the
// widget model module versions it registers), which the same tests compare with the Python
// packages installed.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';

const OUT = '../voila_template/sloth/static';
const VERSIONS = 'BUILT_AGAINST.json';

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
writeFileSync(join(OUT, VERSIONS), JSON.stringify(await builtAgainst(hash), null, 2) + '\n');

// The @jupyter-widgets/* packages as installed (npm ci: as locked), and the versions of the
// widget model modules the bundle registers: main.js's MODULES takes them from these same
// constants of the bundled packages (an ipywidgets release that moves them is a new spec).
async function builtAgainst(inputs) {
  const dependencies = JSON.parse(readFileSync('package.json', 'utf8')).dependencies;
  const npm = Object.fromEntries(Object.keys(dependencies).filter((name) => name.startsWith('@jupyter-widgets/'))
    .map((name) => [name, JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8')).version]));
  const constants = await esbuild.build({
    stdin: {
      contents: "export { JUPYTER_WIDGETS_VERSION, PROTOCOL_VERSION } from '@jupyter-widgets/base/lib/version';\n"
        + "export { JUPYTER_CONTROLS_VERSION } from '@jupyter-widgets/controls/lib/version';\n",
      resolveDir: '.',
    },
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  const code = constants.outputFiles[0].text;
  const v = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return {
    inputs_sha256: inputs,
    npm,
    widget_modules: {
      '@jupyter-widgets/base': v.JUPYTER_WIDGETS_VERSION,
      '@jupyter-widgets/controls': v.JUPYTER_CONTROLS_VERSION,
    },
    widget_protocol: v.PROTOCOL_VERSION,
  };
}
