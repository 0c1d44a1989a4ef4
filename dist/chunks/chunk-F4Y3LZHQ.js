import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
function s(i,o){let e=Array.from({length:o.length+1},(n,t)=>t);for(let n=1;n<=i.length;n++){let t=[n];for(let r=1;r<=o.length;r++)t[r]=Math.min(e[r]+1,t[r-1]+1,e[r-1]+(i[n-1]===o[r-1]?0:1));e=t}return e[o.length]}function l(i,o){let e;for(let n of o){let t=s(i.toLowerCase(),n.toLowerCase());(!e||t<e.d)&&(e={name:n,d:t})}return e&&e.d<=Math.max(2,Math.floor(i.length/3))?e.name:void 0}export{s as a,l as b};
