// The watch page (bot/web/server.py, /watch/<game>/<token>): the spectator's table, its
// texts and state in the page's data block, its URLs on <body>.

import { type SpectatorData, mountSpectator } from "./spectator";

const data = JSON.parse(document.getElementById("watch-data")!.textContent!) as SpectatorData;
const body = document.body.dataset;
void mountSpectator(document.getElementById("watch")!, { state: body.state!, events: body.events! }, data);
