"""The JSON Schema of Cluster's game records (``cluster-record.schema.json``)."""
