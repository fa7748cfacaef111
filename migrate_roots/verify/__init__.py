"""`migrate-roots verify`: prove the migration on the user's own server, in both eras, with its SDK's client.

- `plan`: which tools take a path argument (our marker, or `--tool`), the other arguments from each schema;
- `runner`: starts `client.py` with the server environment's python and feeds it the sessions' calls;
- `client`: the shipped client script (standard library + the installed MCP SDK only, never imported here);
- `checks`: what the client saw, judged into one cell per tool, check and session;
- `model`: the result (JSON: `migrate_roots/schemas/verify-v1.json`); `render`: text, rich, Markdown, JSON.
"""
