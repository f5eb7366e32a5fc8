import { loadManifest } from './dist/load/load.js';
import { normalize } from './dist/normalize/normalize.js';
import { renderProject } from './dist/render/render.js';
import { formatFile } from './dist/format/format.js';
let t0 = performance.now();
const { manifest } = loadManifest('/tmp/b1k/mcpgen.yaml');
console.log('load', (performance.now()-t0).toFixed(0)); t0=performance.now();
const { ir } = normalize(manifest, { manifestPath: 'mcpgen.yaml', generatorVersion: '0' });
console.log('normalize', (performance.now()-t0).toFixed(0)); t0=performance.now();
const files = await renderProject(ir);
console.log('render', (performance.now()-t0).toFixed(0)); t0=performance.now();
for (const f of files) { if (f.shape || f.formatted || f.owner==='user') continue; const t=performance.now(); await formatFile(f.path, f.content); console.log(f.path, f.content.length, (performance.now()-t).toFixed(0)); }
