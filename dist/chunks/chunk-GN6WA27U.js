import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{b as i}from"./chunk-WC5K3SLP.js";import{c as t,d as s}from"./chunk-3P3CKQ2R.js";import{w as a}from"./chunk-CF6FXT5F.js";var r=["SIGINT","SIGTERM"];function f(l=n=>process.exit(n),o=process){let n=e=>{if(t()){process.stderr.write(`aks-rdma-action: ${e} again: exiting at once; the Lease, if held, expires by itself (the post step releases it on a runner)
`),l(i(e));return}s(e),a.warning(`aks-rdma-action: ${e} received: stopping at the next safe point (no write is cut off), then releasing the Lease; send it again to exit at once`)};for(let e of r)o.on(e,n);return()=>{for(let e of r)o.off(e,n)}}export{f as a};
