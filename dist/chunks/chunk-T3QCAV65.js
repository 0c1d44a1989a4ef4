import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
function r(e){return{apiVersion:e.apiVersion,kind:e.kind,name:e.metadata.name,...e.metadata.namespace?{namespace:e.metadata.namespace}:{}}}function i(e){return`${e.kind.toLowerCase()}/${e.name}${e.namespace?` -n ${e.namespace}`:""}`}function s(e){return Object.entries(e).map(([n,t])=>`${n}=${t}`).join(",")}export{r as a,i as b,s as c};
