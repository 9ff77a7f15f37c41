"""A web table: people play their seats in a browser, bots play the others (the `web` extra: Starlette and
uvicorn). `table` runs the match; `app` serves each seat its view of it and nothing more."""
