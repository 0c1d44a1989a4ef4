import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{a as n}from"./chunk-WC5K3SLP.js";function o(e){if(!(Number(process.versions.node.split(".")[0])>=22))return process.stderr.write(`${e} needs Node.js 22 or newer (the action runs on node24); this is ${process.version}.
Run it with Node 24, e.g.: npx -y node@24 dist/cli.js ${e} ...
`),n.usage}export{o as a};
