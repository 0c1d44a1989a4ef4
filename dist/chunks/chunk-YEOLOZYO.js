import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
import{k as t}from"./chunk-M5IX7JF2.js";import{j as n}from"./chunk-CF6FXT5F.js";function o(e){return`INPUT_${e.replace(/ /g,"_").toUpperCase()}`}function u(e){return n(e)||void 0}function f(e,r=process.env){for(let[i,s]of Object.entries(e))r[o(i)]=s}function a(e=process.env){return t.filter(r=>r.kind==="secret").map(r=>e[o(r.name)]?.trim()).filter(r=>!!r)}export{o as a,u as b,f as c,a as d};
