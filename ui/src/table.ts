// The table: one player's own page of a game (bot/web/table.py serves it, its state in
// the page's data block).

import { type PageData, mountTable } from "./table_view";

const data = JSON.parse(document.getElementById("table-data")!.textContent!) as PageData;
mountTable(data, document.getElementById("table")!);
