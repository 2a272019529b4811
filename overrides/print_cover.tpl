{#-
  The printed book's cover (mkdocs-print-site-plugin's `cover_page_template`). The plugin's own
  cover prints repo_url whatever it is; mkdocs.yml's default is a placeholder under .invalid,
  a top-level domain reserved never to resolve (RFC 2606), so a cover printed without
  BOOK_REPO_URL would send a reader nowhere. This one names the repository only when it is real.
-#}
<div>
  {% if config.site_name %}<h1>{{ config.site_name }}</h1>{% endif %}
</div>

<table>
  {% if config.site_description %}
  <tr>
    <td>Description</td>
    <td>{{ config.site_description }}</td>
  </tr>
  {% endif %}
  {% if config.site_author %}
  <tr>
    <td>Author(s)</td>
    <td>{{ config.site_author }}</td>
  </tr>
  {% endif %}
  {% set host = (config.repo_url or "").split("/")[2] if "//" in (config.repo_url or "") else "" %}
  {% if host and not (host == "invalid" or host.endswith(".invalid")) %}
  <tr>
    <td>Repository</td>
    <td><a href="{{ config.repo_url }}">{{ config.repo_url }}</a></td>
  </tr>
  {% endif %}
  {% if config.copyright %}
  <tr>
    <td>Copyright</td>
    <td>{{ config.copyright }}</td>
  </tr>
  {% endif %}
</table>
