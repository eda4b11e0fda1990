#pragma once
// A project file outside every module (a test or tool helper): modules do not include it.
