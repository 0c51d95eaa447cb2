# The bot as a container image: the project built as a wheel and installed into a slim
# Python image, run as a non-root user, its SQLite database (if no DATABASE_URL is set)
# on the volume /data, its web pages on port 8080 of every interface of the container.
# compose.yaml runs two of these on PostgreSQL, and one serving the web pages.
#
#   docker build -t schotten-totten-bot .
#   docker run --rm -e DISCORD_TOKEN=... -v schotten-data:/data schotten-totten-bot python -m bot check
#   docker run -e DISCORD_TOKEN=... -e PUBLIC_URL=http://HOST:8080 -p 8080:8080 -v schotten-data:/data schotten-totten-bot
#
# tests/test_compose.py runs these install and start steps on a read-only copy of the
# source (it cannot run Docker) and checks compose.yaml against this file.

FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY rules/ rules/
COPY bot/ bot/
COPY cogs/ cogs/
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home schotten \
    && mkdir /data && chown schotten:schotten /data
USER schotten
WORKDIR /data
ENV DATABASE_PATH=/data/schotten.db
VOLUME ["/data"]
# The web pages: reachable through a published port (-p 8080:8080) only on 0.0.0.0.
ENV WEB_HOST=0.0.0.0 WEB_PORT=8080
EXPOSE 8080
# python -m bot closes Discord and then the database on SIGTERM, within 10 seconds
# (Docker's default grace period before SIGKILL).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
