"""`handformer serve`: the walkthrough as a local web app and a JSON API (Starlette on uvicorn).

app.py builds the ASGI app (routes, guard middleware), api.py answers /api/*, requests.py turns
a JSON body into a Config and sentences under the limits of limits.py, jobs.py trains in the
background, sessions.py keeps each browser's jobs apart, compare.py diffs two tapes, pages.py is
the one place that calls the renderers.
"""
