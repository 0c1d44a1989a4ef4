import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
var s={success:0,failure:1,usage:2,drift:3};export{s as a};
