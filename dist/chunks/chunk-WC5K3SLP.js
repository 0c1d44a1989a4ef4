import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
var e={success:0,failure:1,usage:2,drift:3,interrupted:130,terminated:143};function r(t){return t==="SIGTERM"?e.terminated:e.interrupted}export{e as a,r as b};
