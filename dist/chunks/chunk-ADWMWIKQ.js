import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
function t(r,n){return r.length<=n?r:`${r.slice(0,Math.max(0,n-1))}\u2026`}function i(r,n=64){return r.length<=n?JSON.stringify(r):`${JSON.stringify(t(r,n))} (${r.length} characters)`}export{t as a,i as b};
