"""The site's blueprints: the table screen, the seats' phones and the host controls."""
