from tokenjuice.cli.main import cli

cli()
