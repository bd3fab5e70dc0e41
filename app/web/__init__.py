"""The web app's static files (web/dist, built from web/ by make dev and make test) served at
/app/, with any unknown /app/ path answered by its index.html (the app routes in the
browser), and GET / sending a browser there. Other areas import nothing from here."""
__all__: list = []
