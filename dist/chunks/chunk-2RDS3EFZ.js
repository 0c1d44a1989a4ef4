import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
function d(c){let s={},i=c.split(`
`);for(let n=0;n<i.length;n++){let e=i[n],t=/^([^=<]+)<<(.+)$/.exec(e);if(t){let[,l,r]=t,o=[];for(;++n<i.length&&i[n]!==r;)o.push(i[n]);s[l]=o.join(`
`)}else e.includes("=")&&(s[e.slice(0,e.indexOf("="))]=e.slice(e.indexOf("=")+1))}return s}export{d as a};
