import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
var c="AKS_RDMA_SIM_TIME_SCALE";function u(t=process.env){let e=Number(t[c]);return t[c]&&e>0&&e<=1?e:void 0}function g(t){let e={},i=t.split(`
`);for(let n=0;n<i.length;n++){let s=i[n],o=/^([^=<]+)<<(.+)$/.exec(s);if(o){let[,l,d]=o,r=[];for(;++n<i.length&&i[n]!==d;)r.push(i[n]);e[l]=r.join(`
`)}else s.includes("=")&&(e[s.slice(0,s.indexOf("="))]=s.slice(s.indexOf("=")+1))}return e}export{c as a,u as b,g as c};
