// failover.html: the failover lab (playground/failover-lab.js).
import { FailoverLab } from "./playground/failover-lab.js";

const lab = new FailoverLab(document.getElementById("lab"));
window.lab = lab;
await lab.init();
document.body.dataset.ready = "true";
