"""Local Cluster's board under the camera: its kit, the recognizer, the renderer, the sheets."""
