import { createRequire as __aksRdmaActionCreateRequire } from 'node:module';
globalThis.require ??= __aksRdmaActionCreateRequire(import.meta.url);
function t(e){return e.mode==="plan"?!1:!e.cluster.kubeconfig||e.mode==="apply"?!0:e.mode==="uninstall"?e.cleanup!==void 0&&e.cleanup!=="none":e.mode==="drift"&&e.azure.subscriptionId!==void 0}export{t as a};
